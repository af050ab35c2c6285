import { packageRunner } from "../../../mcp/client-manager/connect-timeout.js";
import type { CallerOptions } from "../../../mcp/client-manager/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { CancelledError } from "../../../terminal/prompt.js";
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
    return await untilInterrupted(context, name, work());
  } finally {
    clearInterval(ticker);
    spinner.stop();
  }
}

/** What a connection made for this command is told: the REPL's Ctrl-C cancels it. */
export function callerOf(context: CommandContext): CallerOptions {
  return context.signal === undefined ? {} : { signal: context.signal };
}

/**
 * The work's answer, or CANCELLED as soon as the REPL's Ctrl-C aborts the command: a server that
 * never answers its handshake must not hold the prompt until the connect timeout.
 */
function untilInterrupted<T>(context: CommandContext, name: string, work: Promise<T>): Promise<T> {
  const signal = context.signal;
  if (signal === undefined) return work;
  const interrupted = () => new CancelledError("CANCELLED", `interrupted while connecting to ${name}; nothing was listed. Try again when the server answers, or see \`${context.face === "repl" ? "/" : "mcpvm "}mcp list\`.`);
  if (signal.aborted) return Promise.reject(interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(interrupted());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
