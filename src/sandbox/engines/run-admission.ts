import { errorMessage } from "../../util/errors.js";
import { guestManifestText } from "../guest/bootstrap-source.js";
import { wrapPlainScript } from "../guest/plain-script.js";
import type { TransformResult } from "../guest/transform.js";
import type { WrappedSource } from "../guest/wrapper.js";
import { buildRunResult, type RunFrame, type RunReport } from "../host/outcome.js";
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
  /** The parser never saw the script (plain-script.ts): a SyntaxError from QuickJS is re-checked by it (settleRun). */
  readonly unparsed: boolean;
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

/** The plan every QuickJS engine hands its run: the admitted script and limits, the request's prelude and signal. */
export function engineRunPlan(admitted: AdmittedRun, request: RunRequest, stackBytes: number): EngineRunPlan {
  return {
    code: admitted.source.code,
    filename: admitted.filename,
    ...(request.prelude === undefined ? {} : { prelude: request.prelude }),
    manifestText: admitted.manifestText,
    modules: admitted.modules,
    limits: admitted.limits,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    stackBytes,
  };
}

const DEFAULT_FILENAME = "guest.js";

/**
 * What every QuickJS engine checks before it takes a worker or an instance: a disposed engine, bad limits, a
 * signal already aborted, a script that does not parse. Refusals carry the engine's name in their stats.
 */
export async function admitRun(engine: EngineKind, request: RunRequest, defaultLimits: RunLimits, disposed: boolean): Promise<AdmittedRun | { readonly ok: false; readonly result: RunResult }> {
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
  const plain = wrapPlainScript(request.code);
  let source: WrappedSource;
  if (plain !== undefined) {
    source = plain;
  } else {
    const transformed = await transform(request.code);
    if (!transformed.ok) return refuse(syntaxRefusal(transformed.error, filename));
    source = transformed.source;
  }
  const modules = request.modules ?? {};
  return { ok: true, limits, filename, source, modules, manifestText: guestManifestText(modules, limits.outputBytes, request.toolsGlobal), unparsed: plain !== undefined };
}

/**
 * The run's result from its report. A script admitted without the parser that QuickJS found no
 * valid script gets the parser's refusal, exactly as if it had been parsed at admission (the same
 * message, position and snippet); if the parser accepts it, QuickJS's own SyntaxError stands, as it
 * would have for a parsed script.
 */
export async function settleRun(engine: EngineKind, report: RunReport, frame: RunFrame, unparsed: boolean): Promise<RunResult> {
  if (unparsed && report.outcome.kind === "syntax") {
    const transformed = await transform(frame.source.original);
    if (!transformed.ok) return failedBeforeRun(engine, syntaxRefusal(transformed.error, frame.filename));
  }
  return buildRunResult(report, frame);
}

function syntaxRefusal(error: Extract<TransformResult, { ok: false }>["error"], filename: string): GuestErrorInfo {
  return { code: "SYNTAX_ERROR", name: "SyntaxError", ...error, file: filename };
}

/** The Babel transform (and its cache), loaded on the first script that needs it. */
let transformer: ((code: string) => TransformResult) | undefined;

async function transform(code: string): Promise<TransformResult> {
  transformer ??= (await import("../guest/transform-cache.js")).transformGuestSourceCached;
  return transformer(code);
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
