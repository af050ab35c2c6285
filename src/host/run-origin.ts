import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who a guest run's MCP calls are made for (RunOptions.origin: the gateway client request that ran
 * run_mcp_script), read by each call from the run's async context (its host calls are bound to it).
 * The calls then go upstream as that client's direct calls do: with the log level it asked for, and
 * the upstream's log messages, elicitations and roots requests resolve to it rather than to "the only
 * gateway call in flight".
 */
const current = new AsyncLocalStorage<unknown>();

export function runForOrigin<T>(origin: unknown, run: () => Promise<T>): Promise<T> {
  return origin === undefined ? run() : current.run(origin, run);
}

/** The origin of the run this host call belongs to; undefined outside one, or for a run without one. */
export function currentRunOrigin(): unknown {
  return current.getStore();
}
