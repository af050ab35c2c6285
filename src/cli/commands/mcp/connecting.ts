import { packageRunner } from "../../../mcp/client-manager/connect-timeout.js";
import type { CommandContext } from "../../../terminal/command.js";
import { progressText } from "../../../terminal/server-progress.js";
import { Spinner } from "../../../terminal/spinner.js";

/** npx, uvx … when the server starts through a package runner (its first start is a download). */
async function runnerOf(context: CommandContext, name: string): Promise<string | undefined> {
  try {
    const entry = (await context.host()).mcpServers()?.entry(name);
    return entry?.type === "stdio" ? packageRunner(entry.command, entry.args ?? []) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A spinner on stderr while a server starts (first connection lists and audits its tools), with the
 * time so far and, for npx/uvx servers, that a first start downloads the package.
 */
export async function connecting<T>(context: CommandContext, name: string, work: () => Promise<T>): Promise<T> {
  const spinner = new Spinner(context.io.stderr);
  const starting = new Map([[name, { since: Date.now(), runner: await runnerOf(context, name) }]]);
  spinner.start(progressText(starting, Date.now()));
  const ticker = setInterval(() => spinner.update(progressText(starting, Date.now())), 1_000);
  ticker.unref();
  try {
    return await work();
  } finally {
    clearInterval(ticker);
    spinner.stop();
  }
}
