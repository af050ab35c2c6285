import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Which caller a server→client request (elicitation, sampling, roots) belongs to.
 *
 * The protocol does not say: on a 2025-era stdio connection a server's request arrives on the
 * same pipe as everything else. What we know, in order of certainty:
 * 1. the async context: a request the SDK dispatches inside one of our calls' async chain runs in
 *    that call's AsyncLocalStorage context (SDK 2.4 dispatches 2026-07-28 `input_required` rounds
 *    and stdio messages from its transport handlers, so there it is rule 2 that decides);
 * 2. the calls in flight on that server: if they all belong to one caller, it is that caller's;
 * 3. otherwise it is ambiguous, and the hook decides (the gateway declines).
 */
export interface InFlightCall {
  readonly server: string;
  /** tools/call, resources/read, prompts/get, ... */
  readonly method: string;
  /** CallerOptions.origin of the call (a gateway session, a guest run); undefined when the caller gave none. */
  readonly origin: unknown;
}

export interface ResolvedOrigin {
  readonly origin: unknown;
  /** "context": the async context named the call; "only-caller": one caller had calls in flight; "unknown": neither. */
  readonly how: "context" | "only-caller" | "unknown";
  /** The distinct origins of the calls in flight on the server when the request arrived. */
  readonly inFlight: readonly unknown[];
}

const current = new AsyncLocalStorage<InFlightCall>();

/** Runs `fn` as `call`: server→client requests raised inside it resolve to `call.origin`. */
export function runAsCall<T>(call: InFlightCall, fn: () => Promise<T>): Promise<T> {
  return current.run(call, fn);
}

/** Pure: decides the origin from the async-context call (if any) and the calls in flight on `server`. */
export function resolveOrigin(server: string, contextCall: InFlightCall | undefined, inFlight: Iterable<InFlightCall>): ResolvedOrigin {
  const origins = [...new Set([...inFlight].filter((call) => call.server === server).map((call) => call.origin))];
  if (contextCall !== undefined && contextCall.server === server) return { origin: contextCall.origin, how: "context", inFlight: origins };
  if (origins.length === 1) return { origin: origins[0], how: "only-caller", inFlight: origins };
  return { origin: undefined, how: "unknown", inFlight: origins };
}

export function currentCall(): InFlightCall | undefined {
  return current.getStore();
}
