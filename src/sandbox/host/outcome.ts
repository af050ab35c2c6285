import { z } from "zod";
import { CodecError, decodeFromGuest, MAX_NESTING_DEPTH } from "../guest/codec.js";
import { sourceSnippet } from "../guest/snippet.js";
import { firstStackPosition, mapGuestPosition, mapGuestStack, type WrappedSource } from "../guest/wrapper.js";
import type { GuestPieceName } from "../guest/native.js";
import type { GuestErrorInfo, LogEntry, EngineLimit, RunLimits, RunResult, RunStats, SandboxErrorCode } from "../types.js";
import { errorBytes, fitErrorToBudget, MIN_ERROR_BYTES } from "./output-budget.js";
import { collapseRepeatedFrames } from "./stack-repeats.js";

/**
 * How a run ended, as an engine reports it before any interpretation. Engine-neutral: the quickjs
 * worker and the hyperlight host both produce one of these, and `buildRunResult` turns it into the
 * public RunResult, so both engines classify errors identically.
 */
export type EngineOutcome =
  /** The bootstrap's runner settled; `text` is its GuestOutcome envelope. */
  | { readonly kind: "envelope"; readonly text: string }
  | { readonly kind: "limit"; readonly limit: EngineLimit; readonly detail?: string }
  | { readonly kind: "cancelled"; readonly detail?: string }
  /** The engine could not compile the wrapped code; position is in wrapped-code coordinates. */
  | { readonly kind: "syntax"; readonly message: string; readonly line?: number; readonly column?: number }
  | { readonly kind: "prelude"; readonly error: ThrownInfo }
  /** An exception escaped the bootstrap's runner (uncatchable errors, exhaustion while reporting). */
  | { readonly kind: "uncaught"; readonly error: ThrownInfo }
  /** The main promise is pending and nothing (no host call, no job) can ever settle it. */
  | { readonly kind: "deadlock" }
  | { readonly kind: "failure"; readonly message: string }
  /**
   * Shared mode: the guest computed past its move point with no host call and no log, so nothing of it
   * was seen; its engine runs it again from the start on a thread of its own (quickjs-shared-engine.ts).
   */
  | { readonly kind: "moved" };

export interface ThrownInfo {
  readonly name?: string;
  readonly message: string;
  readonly stack?: string;
}

export interface RunReport {
  readonly outcome: EngineOutcome;
  readonly logs: readonly LogEntry[];
  readonly logBytes: number;
  readonly droppedLogs: number;
  readonly stats: Omit<RunStats, "outputBytes" | "droppedLogs">;
}

export interface RunFrame {
  readonly limits: RunLimits;
  readonly source: WrappedSource;
  readonly filename: string;
}

const ThrownSchema = z.object({
  name: z.string().optional(),
  message: z.string(),
  stack: z.string().optional(),
  code: z.string().optional(),
  fromHost: z.boolean(),
});

/** What the guest runner may claim; the text comes from the guest, so it is validated like any input. */
const GuestOutcomeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown().optional(), notes: z.array(z.string().max(1_000)).max(10).optional() }),
  z.object({ ok: z.literal(false), kind: z.literal("thrown"), error: ThrownSchema }),
  z.object({ ok: z.literal(false), kind: z.literal("unserializable"), error: z.object({ name: z.string(), message: z.string() }) }),
  z.object({ ok: z.literal(false), kind: z.literal("too_large"), chars: z.number() }),
]);

const OK_PREFIX = '{"ok":true,"value":';

type GuestOutcome = z.infer<typeof GuestOutcomeSchema>;

/**
 * The commonest envelope, a result, checked by hand as GuestOutcomeSchema's first member checks it
 * (an object whose `ok` is true, `notes` absent or at most 10 strings of at most 1,000 characters) and
 * built as its parse builds it (only those keys): a zod union's parse was a noticeable part of settling
 * a trivial run. Anything else (undefined here) goes to the schema, which decides as before.
 */
function resultEnvelope(parsed: unknown): GuestOutcome | undefined {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const claimed = parsed as { readonly ok?: unknown; readonly value?: unknown; readonly notes?: unknown };
  if (claimed.ok !== true) return undefined;
  const notes = claimed.notes;
  if (notes !== undefined && !(Array.isArray(notes) && notes.length <= 10 && notes.every((note) => typeof note === "string" && note.length <= 1_000))) return undefined;
  const hasValue = Object.hasOwn(claimed, "value");
  if (notes === undefined) return hasValue ? { ok: true, value: claimed.value } : { ok: true };
  return hasValue ? { ok: true, value: claimed.value, notes: notes as string[] } : { ok: true, notes: notes as string[] };
}

const BARE_OK = '{"ok":true}';

/**
 * What a result envelope costs against the output budget: its text but the runner's own framing. The
 * text is the guest's (a script that gives Promise a species builds the runner's promise and can rewrite
 * what it resolves with), so nothing here relies on its key order: a value not behind OK_PREFIX, and any
 * notes, are counted with the whole text.
 */
function resultEnvelopeBytes(text: string): number {
  const bytes = Buffer.byteLength(text);
  if (text.startsWith(OK_PREFIX)) return bytes - OK_PREFIX.length - 1;
  return Math.max(0, bytes - BARE_OK.length);
}

export function buildRunResult(report: RunReport, frame: RunFrame): RunResult {
  // An error is output too: what the logs left of the budget (at least MIN_ERROR_BYTES, so it still
  // says what went wrong), its text cut with a marker past that. A 20 MB message is not 40 MB of output.
  const fail = (error: GuestErrorInfo): RunResult => {
    const allowance = Math.max(frame.limits.outputBytes - report.logBytes, MIN_ERROR_BYTES);
    const fitted = fitErrorToBudget(error, allowance, frame.limits.outputBytes);
    return {
      ok: false,
      error: fitted,
      logs: report.logs,
      stats: { ...report.stats, outputBytes: report.logBytes + errorBytes(fitted), droppedLogs: report.droppedLogs },
    };
  };
  const outcome = report.outcome;
  switch (outcome.kind) {
    case "limit":
      return fail(limitError(outcome.limit, frame.limits, outcome.detail));
    case "cancelled":
      return fail({ code: "CANCELLED", message: outcome.detail ?? "The run was cancelled" });
    case "syntax": {
      const position = mapGuestPosition({ line: outcome.line ?? 1, column: outcome.column ?? 1 }, frame.source);
      const snippet = sourceSnippet(frame.source.original, position.line, position.column);
      return fail({ code: "SYNTAX_ERROR", name: "SyntaxError", message: outcome.message, ...position, file: frame.filename, ...(snippet === undefined ? {} : { snippet }) });
    }
    case "prelude":
      return fail({ code: "PRELUDE_ERROR", message: `The sandbox prelude failed: ${outcome.error.message}`, ...named(outcome.error) });
    case "uncaught":
      return fail(thrownError(outcome.error, undefined, false, frame));
    case "deadlock":
      return fail({
        code: "GUEST_ERROR",
        message: "The script awaited a promise that can never settle (no host call is in flight to settle it)",
      });
    case "failure":
      return fail({ code: "ENGINE_FAILURE", message: outcome.message });
    case "moved":
      // Its engine runs a moved run again; reaching here is that engine's mistake, said as such.
      return fail({ code: "ENGINE_FAILURE", message: "The run was moved to a thread of its own but not run there" });
    case "envelope":
      break;
  }

  let envelope: GuestOutcome;
  try {
    const parsed = decodeFromGuest(outcome.text, MAX_NESTING_DEPTH + 1);
    envelope = resultEnvelope(parsed) ?? GuestOutcomeSchema.parse(parsed);
  } catch (error) {
    const reason = error instanceof CodecError ? error.message : "the sandbox sent an invalid result envelope";
    return fail({ code: "RESULT_NOT_SERIALIZABLE", message: `The script's result cannot be returned: ${reason}` });
  }

  if (envelope.ok) {
    const resultBytes = resultEnvelopeBytes(outcome.text);
    const outputBytes = resultBytes + report.logBytes;
    if (outputBytes > frame.limits.outputBytes) {
      return fail(limitError("outputBytes", frame.limits, `result ${resultBytes} bytes + logs ${report.logBytes} bytes`));
    }
    return {
      ok: true,
      value: envelope.value,
      logs: report.logs,
      stats: { ...report.stats, outputBytes, droppedLogs: report.droppedLogs },
      ...(envelope.notes === undefined || envelope.notes.length === 0 ? {} : { notes: envelope.notes }),
    };
  }
  switch (envelope.kind) {
    case "thrown":
      return fail(thrownError(envelope.error, envelope.error.code, envelope.error.fromHost, frame));
    case "too_large":
      return fail(limitError("outputBytes", frame.limits, `the result alone is ${envelope.chars} characters of JSON`));
    case "unserializable": {
      const internal = quickJsInternalError(envelope.error.name, envelope.error.message);
      if (internal === "MEMORY_LIMIT") return fail(limitError("memoryBytes", frame.limits));
      const reason = internal === "STACK_OVERFLOW" ? "it is nested too deeply" : envelope.error.message;
      return fail({
        code: "RESULT_NOT_SERIALIZABLE",
        message: `The script's result cannot be returned as JSON data or Uint8Array: ${reason}`,
      });
    }
  }
}

export function limitError(limit: EngineLimit, limits: RunLimits, detail?: string): GuestErrorInfo {
  const value = limits[limit];
  const messages: Record<EngineLimit, [SandboxErrorCode, string]> = {
    cpuMs: ["CPU_LIMIT", `The script used more than its CPU time limit (cpuMs = ${value})`],
    wallMs: ["WALL_LIMIT", `The script ran longer than its wall-clock limit (wallMs = ${value}, host calls included)`],
    memoryBytes: ["MEMORY_LIMIT", `The script ran out of memory (memoryBytes = ${value})`],
    outputBytes: ["OUTPUT_LIMIT", `The script's output exceeded its limit (outputBytes = ${value}, result and logs together)`],
  };
  const [code, message] = messages[limit];
  return { code, limit, message: detail === undefined ? message : `${message}: ${detail}` };
}

function thrownError(error: ThrownInfo, errorCode: string | undefined, fromHost: boolean, frame: RunFrame): GuestErrorInfo {
  const internal = quickJsInternalError(error.name, error.message);
  if (internal === "MEMORY_LIMIT") return limitError("memoryBytes", frame.limits);
  const frames = error.stack === undefined ? "" : collapseRepeatedFrames(withoutInternalFrames(mapGuestStack(error.stack, frame.filename, frame.source)));
  const head = error.name === undefined ? error.message : `${error.name}: ${error.message}`;
  const position = error.stack === undefined ? undefined : firstStackPosition(error.stack, frame.filename, frame.source);
  const code: SandboxErrorCode = fromHost ? "HOST_FUNCTION_ERROR" : internal ?? "GUEST_ERROR";
  return {
    code,
    message: internal === "STACK_OVERFLOW" ? "Maximum call stack size exceeded (the script recursed too deeply)" : error.message,
    ...(error.name === undefined ? {} : { name: error.name }),
    stack: frames === "" ? head : `${head}\n${frames.replace(/\n$/, "")}`,
    ...(position ?? {}),
    ...(errorCode === undefined ? {} : { errorCode }),
  };
}

/**
 * QuickJS (inside both engines) reports memory and stack exhaustion only as an InternalError with
 * a fixed message; there is no code to look at. A guest can forge these, which only mislabels its
 * own failure.
 */
function quickJsInternalError(name: string | undefined, message: string): "MEMORY_LIMIT" | "STACK_OVERFLOW" | undefined {
  if (name !== "InternalError") return undefined;
  if (message === "out of memory") return "MEMORY_LIMIT";
  if (message === "stack overflow") return "STACK_OVERFLOW";
  return undefined;
}

/**
 * Frames inside mcpvm's own guest code (the bootstrap, a prelude, and every piece compiled as
 * `mcpvm-<piece>.js`: host modules, the `tools` global, formatting, diagnostics, base64) say nothing
 * about the user's script; the user's frames around them stay. A piece left out here shows its
 * frames in every error of that kind (host-module errors did, once modules left the bootstrap):
 * OWN_PIECES is typed so that a new piece must be named here.
 */
const OWN_PIECES: Record<GuestPieceName, true> = { base64: true, format: true, diagnostics: true, modules: true, tools: true };
const OWN_FILE = String.raw`mcpvm-(?:${["bootstrap", "prelude", ...Object.keys(OWN_PIECES)].join("|")})\.js(?::\d+)*`;
const INTERNAL_FRAME = new RegExp(String.raw`^\s*at .*\(${OWN_FILE}\)\s*$|^\s*at ${OWN_FILE}\s*$`);

export function withoutInternalFrames(stack: string): string {
  return stack
    .split("\n")
    .filter((line) => !INTERNAL_FRAME.test(line))
    .join("\n");
}

function named(error: ThrownInfo): { name?: string; stack?: string } {
  return { ...(error.name === undefined ? {} : { name: error.name }), ...(error.stack === undefined ? {} : { stack: error.stack }) };
}
