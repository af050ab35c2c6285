import { errorMessage } from "../../util/errors.js";
import { guestManifest } from "../guest/bootstrap-source.js";
import type { WrappedSource } from "../guest/transform.js";
import { transformGuestSourceCached } from "../guest/transform-cache.js";
import { resolveLimits } from "../limits.js";
import type { EngineKind, GuestErrorInfo, HostModules, RunLimits, RunRequest, RunResult } from "../types.js";

/** A request both QuickJS engines accept: limits resolved, the script transformed, the guest's manifest written. */
export interface AdmittedRun {
  readonly ok: true;
  readonly limits: RunLimits;
  readonly filename: string;
  readonly source: WrappedSource;
  readonly modules: HostModules;
  readonly manifestText: string;
}

/** What a QuickJS engine hands its run once admitted (each engine adds its own fields). */
export interface EngineRunPlan {
  /** The wrapped script (an expression evaluating to the async main function). */
  readonly code: string;
  readonly filename: string;
  readonly prelude?: string;
  readonly manifestText: string;
  readonly modules: HostModules;
  readonly limits: RunLimits;
  readonly signal?: AbortSignal;
  /** QuickJS's stack limit, in bytes. */
  readonly stackBytes: number;
}

const DEFAULT_FILENAME = "guest.js";

/**
 * What every QuickJS engine checks before it takes a worker or an instance: a disposed engine, bad limits, a
 * signal already aborted, a script that does not parse. Refusals carry the engine's name in their stats.
 */
export function admitRun(engine: EngineKind, request: RunRequest, defaultLimits: RunLimits, disposed: boolean): AdmittedRun | { readonly ok: false; readonly result: RunResult } {
  const refuse = (error: GuestErrorInfo) => ({ ok: false as const, result: failedBeforeRun(engine, error) });
  if (disposed) return refuse({ code: "ENGINE_UNAVAILABLE", message: "The QuickJS engine has been disposed" });
  let limits: RunLimits;
  try {
    limits = resolveLimits(request.limits, defaultLimits);
  } catch (error) {
    return refuse({ code: "INVALID_REQUEST", message: errorMessage(error) });
  }
  if (request.signal?.aborted === true) return refuse({ code: "CANCELLED", message: "The run was cancelled before it started" });
  const filename = request.filename ?? DEFAULT_FILENAME;
  const transformed = transformGuestSourceCached(request.code);
  if (!transformed.ok) return refuse({ code: "SYNTAX_ERROR", name: "SyntaxError", ...transformed.error, file: filename });
  const modules = request.modules ?? {};
  return { ok: true, limits, filename, source: transformed.source, modules, manifestText: JSON.stringify(guestManifest(modules, limits.outputBytes)) };
}

/** A result for a run that failed before (or without) reaching QuickJS. */
export function failedBeforeRun(engine: EngineKind, error: GuestErrorInfo): RunResult {
  return {
    ok: false,
    error,
    logs: [],
    stats: { engine, wallMs: 0, cpuMs: 0, hostCalls: 0, outputBytes: 0, droppedLogs: 0 },
  };
}
