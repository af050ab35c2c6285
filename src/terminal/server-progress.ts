import type { Writable } from "node:stream";
import { packageRunner } from "../mcp/client-manager/connect-timeout.js";
import type { McpService } from "../mcp/service/index.js";
import { displayInline } from "./display.js";
import { Spinner } from "./spinner.js";

/** After this long, a start through npx/uvx/docker is said to be downloading. */
const DOWNLOAD_HINT_MS = 3_000;

/** What the progress line says: the servers starting, how long, and why it may take a while. */
export function progressText(starting: ReadonlyMap<string, { since: number; runner: string | undefined }>, now: number): string {
  const parts = [...starting].map(([name, { since, runner }]) => {
    const seconds = Math.floor((now - since) / 1000);
    const download = runner !== undefined && now - since >= DOWNLOAD_HINT_MS ? ` (${runner} may be downloading it on its first start)` : "";
    return `${displayInline(name)}${download}${seconds >= 1 ? ` ${seconds} s` : ""}`;
  });
  return `starting MCP server ${parts.join(", ")}…`;
}

/**
 * A progress line on stderr (TTY only) while MCP servers start during a run, which can take a
 * minute on an npx server's first start. Returns the function that removes it.
 */
export async function showServerProgress(host: { onMcpService(listener: (service: McpService) => void): () => void }, stream: Writable & { isTTY?: boolean }): Promise<() => void> {
  if (stream.isTTY !== true) return () => undefined;
  // Nothing is loaded for it: the listener below waits for the service, which the run's first
  // require of a server builds (after loading the plugins then, src/host/deferred-plugins.ts).
  const spinner = new Spinner(stream);
  const starting = new Map<string, { since: number; runner: string | undefined }>();
  const redraw = () => {
    if (starting.size === 0) spinner.stop();
    else if (spinner.active) spinner.update(progressText(starting, Date.now()));
    else spinner.start(progressText(starting, Date.now()));
  };
  const ticker = setInterval(redraw, 1_000);
  ticker.unref();
  // The service is built when the run first requires a server's module (never, for a run that uses none).
  const unsubscribes: (() => void)[] = [];
  const stopWaiting = host.onMcpService((service) => {
    unsubscribes.push(
      service.clients.subscribe((event) => {
        if (event.type !== "state") return;
        if (event.state === "connecting") {
          const entry = service.entry(event.server);
          starting.set(event.server, { since: Date.now(), runner: entry.type === "stdio" ? packageRunner(entry.command, entry.args ?? []) : undefined });
        } else starting.delete(event.server);
        redraw();
      }),
    );
  });
  return () => {
    stopWaiting();
    for (const unsubscribe of unsubscribes) unsubscribe();
    clearInterval(ticker);
    spinner.stop();
  };
}
