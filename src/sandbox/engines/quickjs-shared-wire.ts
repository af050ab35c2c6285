import type { RunReport } from "../host/outcome.js";
import type { LogEntry, LogLevel } from "../types.js";
import type { SharedCallMessage, SharedDoneMessage, SharedRunPlan } from "./quickjs-shared-protocol.js";

/**
 * A shared worker's per-call and per-run messages as strings: a host call (worker → main thread), its
 * reply and its live events (main thread → worker), a run (main thread → worker) and its end. A message of a few fields costs structured clone a walk of
 * its properties on one side and, on the other, a new object built key by key (each key looked up in
 * V8's string table, the object's map found by transitions); a string is copied in one piece.
 * Measured beside object messages in one process: bench/_shared-floor.mjs.
 *
 * Every field a guest chooses (module and function names, the arguments' JSON) may hold any
 * character, so each is either last or preceded by its length; the numbers come first. The worker
 * starts these functions from their source text (quickjs-shared-assets.ts): each references
 * nothing outside its own body.
 */

/** `runId,callId,flags,moduleLength,fnLength:` + module + fn + argsText; flags: 1 listen, 2 live. */
export function encodeSharedCall(runId: number, callId: number, module: string, fn: string, argsText: string, listen: boolean, live: boolean): string {
  return `${runId},${callId},${(listen ? 1 : 0) + (live ? 2 : 0)},${module.length},${fn.length}:${module}${fn}${argsText}`;
}

/**
 * The call `encodeSharedCall` wrote; undefined for text it did not write. The header is read digit
 * by digit: split and Number over its pieces cost 1–2.5 µs a call, most of the decode.
 */
export function decodeSharedCall(text: string): SharedCallMessage | undefined {
  const fields = [0, 0, 0, 0, 0];
  let field = 0;
  let value = 0;
  let digits = 0;
  let at = 0;
  for (; at < text.length && field < 5; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      digits++;
    } else if (digits > 0 && code === (field === 4 ? 58 : 44)) {
      fields[field++] = value;
      value = 0;
      digits = 0;
    } else return undefined;
  }
  const [runId, callId, flags, moduleLength, fnLength] = fields as [number, number, number, number, number];
  const fnAt = at + moduleLength;
  const argsAt = fnAt + fnLength;
  if (field < 5 || argsAt > text.length) return undefined;
  return {
    runId,
    callId,
    module: text.slice(at, fnAt),
    fn: text.slice(fnAt, argsAt),
    argsText: text.slice(argsAt),
    listen: (flags & 1) !== 0,
    live: (flags & 2) !== 0,
  };
}

/** `r` (a reply) or `e` (one of its live events), then `runId,callId:` and the text. */
export function encodeSharedAnswer(type: "reply" | "event", runId: number, callId: number, text: string): string {
  return `${type === "reply" ? "r" : "e"}${runId},${callId}:${text}`;
}

/** What `encodeSharedAnswer` wrote; undefined for text it did not write (its numbers read as decodeSharedCall reads its header). */
export function decodeSharedAnswer(message: string): { readonly type: "reply" | "event"; readonly runId: number; readonly callId: number; readonly text: string } | undefined {
  const kind = message.charCodeAt(0);
  if (kind !== 114 && kind !== 101) return undefined;
  let runId = -1;
  let value = 0;
  let digits = 0;
  for (let at = 1; at < message.length; at++) {
    const code = message.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + code - 48;
      digits++;
    } else if (digits > 0 && code === 44 && runId === -1) {
      runId = value;
      value = 0;
      digits = 0;
    } else if (digits > 0 && code === 58 && runId !== -1) {
      return { type: kind === 114 ? "reply" : "event", runId, callId: value, text: message.slice(at + 1) };
    } else return undefined;
  }
  return undefined;
}

/**
 * A run for a worker (SharedRunPlan): `s` then `runId,slot,cpuMs,wallMs,memoryBytes,outputBytes,toolCalls,
 * stackBytes,moveAfterCpuMs,filenameLength,preludeLength,manifestLength:` (an optional number or the
 * prelude's length empty when absent) + filename + prelude + manifest + code. One string where the
 * object message was a walk of two nested objects on each side (bench/_shared-warm.mjs, warm runs).
 */
export function encodeSharedRun(runId: number, slot: number, plan: SharedRunPlan): string {
  const l = plan.limits;
  const prelude = plan.prelude ?? "";
  return (
    `s${runId},${slot},${l.cpuMs},${l.wallMs},${l.memoryBytes},${l.outputBytes},${l.toolCalls ?? ""},${plan.stackBytes},${plan.moveAfterCpuMs ?? ""},` +
    `${plan.filename.length},${plan.prelude === undefined ? "" : prelude.length},${plan.manifestText.length}:${plan.filename}${prelude}${plan.manifestText}${plan.code}`
  );
}

/** What `encodeSharedRun` wrote; undefined for text it did not write. */
export function decodeSharedRun(text: string): { readonly runId: number; readonly slot: number; readonly plan: SharedRunPlan } | undefined {
  const colon = text.indexOf(":");
  if (text.charCodeAt(0) !== 115 || colon === -1) return undefined;
  const head = text.slice(1, colon).split(",");
  if (head.length !== 12) return undefined;
  const [runId, slot, cpuMs, wallMs, memoryBytes, outputBytes, toolCalls, stackBytes, moveAfter, filenameLength, preludeLength, manifestLength] = head as [
    string, string, string, string, string, string, string, string, string, string, string, string,
  ];
  const preludeAt = colon + 1 + Number(filenameLength);
  const manifestAt = preludeAt + (preludeLength === "" ? 0 : Number(preludeLength));
  const codeAt = manifestAt + Number(manifestLength);
  if (!(codeAt <= text.length)) return undefined;
  const limits = { cpuMs: Number(cpuMs), wallMs: Number(wallMs), memoryBytes: Number(memoryBytes), outputBytes: Number(outputBytes) };
  return {
    runId: Number(runId),
    slot: Number(slot),
    plan: {
      code: text.slice(codeAt),
      filename: text.slice(colon + 1, preludeAt),
      ...(preludeLength === "" ? {} : { prelude: text.slice(preludeAt, manifestAt) }),
      manifestText: text.slice(manifestAt, codeAt),
      limits: toolCalls === "" ? limits : { ...limits, toolCalls: Number(toolCalls) },
      stackBytes: Number(stackBytes),
      ...(moveAfter === "" ? {} : { moveAfterCpuMs: Number(moveAfter) }),
    },
  };
}

/**
 * A run's end as the commonest report (the guest's envelope, logs or none), or undefined: the worker
 * posts any other as the object message. `d` then `runId,trapped,logBytes,droppedLogs,wallMs,cpuMs,
 * hostCalls,logCount:`, each log as `level:length:` + its message, then the envelope's text.
 */
export function encodeSharedDone(runId: number, report: RunReport, trapped: boolean): string | undefined {
  const { outcome, stats } = report;
  if (outcome.kind !== "envelope" || stats.memoryBytes !== undefined || stats.movedAfterCpuMs !== undefined) return undefined;
  let logs = "";
  for (const entry of report.logs) logs += `${entry.level}:${entry.message.length}:${entry.message}`;
  return `d${runId},${trapped ? 1 : 0},${report.logBytes},${report.droppedLogs},${stats.wallMs},${stats.cpuMs},${stats.hostCalls},${report.logs.length}:${logs}${outcome.text}`;
}

/** What `encodeSharedDone` wrote (its stats' engine is the worker engine's); undefined for text it did not write. */
export function decodeSharedDone(text: string): SharedDoneMessage | undefined {
  const colon = text.indexOf(":");
  if (text.charCodeAt(0) !== 100 || colon === -1) return undefined;
  const head = text.slice(1, colon).split(",").map(Number);
  if (head.length !== 8 || head.some((value) => Number.isNaN(value))) return undefined;
  const [runId, trapped, logBytes, droppedLogs, wallMs, cpuMs, hostCalls, logCount] = head as [number, number, number, number, number, number, number, number];
  const logs: LogEntry[] = [];
  let at = colon + 1;
  for (let i = 0; i < logCount; i++) {
    const levelEnd = text.indexOf(":", at);
    const lengthEnd = levelEnd === -1 ? -1 : text.indexOf(":", levelEnd + 1);
    if (lengthEnd === -1) return undefined;
    const end = lengthEnd + 1 + Number(text.slice(levelEnd + 1, lengthEnd));
    if (!(end <= text.length)) return undefined;
    logs.push({ level: text.slice(at, levelEnd) as LogLevel, message: text.slice(lengthEnd + 1, end) });
    at = end;
  }
  return {
    type: "done",
    runId,
    trapped: trapped === 1,
    report: { outcome: { kind: "envelope", text: text.slice(at) }, logs, logBytes, droppedLogs, stats: { engine: "quickjs", wallMs, cpuMs, hostCalls } },
  };
}
