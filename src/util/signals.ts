/**
 * Who answers SIGINT, SIGTERM and SIGHUP.
 *
 * In the CLI process one guard (src/cli/signal-guard.ts) owns these signals: a command that has its
 * own answer (Ctrl-C cancels `mcpvm run`'s script, SIGTERM drains `mcpvm serve`) subscribes here, and
 * a signal nobody subscribed to ends the process through the guard, which stops every MCP server
 * first. Plain `process.on` listeners cannot tell the two cases apart: proper-lockfile's signal-exit
 * listens to the same signals, so "is anyone else listening?" is never a sound test.
 */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";
export const STOP_SIGNALS: readonly StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

type Handler = () => void;

const handlers = new Map<StopSignal, Set<Handler>>(STOP_SIGNALS.map((signal) => [signal, new Set<Handler>()]));
let guard: ((signal: StopSignal) => void) | undefined;

export interface SignalOptions {
  /** Answer only the first one: a second Ctrl-C while the command winds down ends the process. */
  readonly once?: boolean;
}

/** A command's own answer to `signal` while it runs; returns the unsubscribe function. */
export function onSignal(signal: StopSignal, handler: Handler, options: SignalOptions = {}): () => void {
  if (guard === undefined) {
    // No guard (runCli inside a test or a longer-lived process): plain process listeners, as before.
    if (options.once === true) process.once(signal, handler);
    else process.on(signal, handler);
    return () => process.off(signal, handler);
  }
  const set = handlers.get(signal) as Set<Handler>;
  const entry: Handler = options.once === true ? () => (set.delete(entry), handler()) : handler;
  set.add(entry);
  return () => set.delete(entry);
}

/**
 * Makes `end` the answer to every stop signal no command has subscribed to. Once per process;
 * a second call changes nothing.
 */
export function installSignalGuard(end: (signal: StopSignal) => void): void {
  if (guard !== undefined) return;
  guard = end;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      const subscribed = [...(handlers.get(signal) as Set<Handler>)];
      if (subscribed.length === 0) guard?.(signal);
      else for (const handler of subscribed) handler();
    });
  }
}
