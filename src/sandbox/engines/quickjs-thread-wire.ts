import type { LogEntry, LogLevel } from "../types.js";
import type { DoneMessage, RunMessage } from "./quickjs-protocol.js";

/**
 * A thread-mode worker's run and its commonest end as strings (shared mode's quickjs-shared-wire.ts
 * does the same for its messages): structured clone walks an object's properties on one side and
 * builds a new object key by key on the other, where a string is copied in one piece. The run message
 * was two nested objects, the result three. Every field a guest chooses (file name, prelude, code, log
 * messages, the envelope) may hold any character, so each is either last or preceded by its length; the
 * numbers come first. The worker starts these functions from their source text (quickjs-assets.ts):
 * each references nothing outside its own body.
 */

/**
 * `r` then `runId,cpuMs,wallMs,memoryBytes,outputBytes,toolCalls,deadline,stackBytes,filenameLength,
 * preludeLength,manifestLength:` (toolCalls and the prelude's length empty when absent) + filename +
 * prelude + manifest + code.
 */
export function encodeThreadRun(run: RunMessage): string {
  const l = run.limits;
  const prelude = run.prelude ?? "";
  return (
    `r${run.runId},${l.cpuMs},${l.wallMs},${l.memoryBytes},${l.outputBytes},${l.toolCalls ?? ""},${run.deadline},${run.stackBytes},` +
    `${run.filename.length},${run.prelude === undefined ? "" : prelude.length},${run.manifestText.length}:${run.filename}${prelude}${run.manifestText}${run.code}`
  );
}

/** What `encodeThreadRun` wrote; undefined for text it did not write. */
export function decodeThreadRun(text: string): RunMessage | undefined {
  const colon = text.indexOf(":");
  if (text.charCodeAt(0) !== 114 || colon === -1) return undefined;
  const head = text.slice(1, colon).split(",");
  if (head.length !== 11) return undefined;
  const [runId, cpuMs, wallMs, memoryBytes, outputBytes, toolCalls, deadline, stackBytes, filenameLength, preludeLength, manifestLength] = head as [
    string, string, string, string, string, string, string, string, string, string, string,
  ];
  const preludeAt = colon + 1 + Number(filenameLength);
  const manifestAt = preludeAt + (preludeLength === "" ? 0 : Number(preludeLength));
  const codeAt = manifestAt + Number(manifestLength);
  if (!(codeAt <= text.length)) return undefined;
  const limits = { cpuMs: Number(cpuMs), wallMs: Number(wallMs), memoryBytes: Number(memoryBytes), outputBytes: Number(outputBytes) };
  return {
    type: "run",
    runId: Number(runId),
    code: text.slice(codeAt),
    filename: text.slice(colon + 1, preludeAt),
    ...(preludeLength === "" ? {} : { prelude: text.slice(preludeAt, manifestAt) }),
    manifestText: text.slice(manifestAt, codeAt),
    limits: toolCalls === "" ? limits : { ...limits, toolCalls: Number(toolCalls) },
    deadline: Number(deadline),
    stackBytes: Number(stackBytes),
  };
}

/**
 * A run's end whose outcome is the guest's envelope (with logs or none), or undefined: the worker posts
 * any other as the object message. `d` then `runId,poisoned,trapped,logBytes,droppedLogs,cpuMs,
 * hostCalls,wasmMemoryBytes,logCount:`, each log as `level:length:` + its message, then the envelope's text.
 */
export function encodeThreadDone(done: DoneMessage): string | undefined {
  if (done.outcome.kind !== "envelope") return undefined;
  let logs = "";
  for (const entry of done.logs) logs += `${entry.level}:${entry.message.length}:${entry.message}`;
  return (
    `d${done.runId},${done.poisoned ? 1 : 0},${done.trapped ? 1 : 0},${done.logBytes},${done.droppedLogs},${done.cpuMs},${done.hostCalls},` +
    `${done.wasmMemoryBytes},${done.logs.length}:${logs}${done.outcome.text}`
  );
}

/** What `encodeThreadDone` wrote; undefined for text it did not write. */
export function decodeThreadDone(text: string): DoneMessage | undefined {
  const colon = text.indexOf(":");
  if (text.charCodeAt(0) !== 100 || colon === -1) return undefined;
  const head = text.slice(1, colon).split(",").map(Number);
  if (head.length !== 9 || head.some((value) => Number.isNaN(value))) return undefined;
  const [runId, poisoned, trapped, logBytes, droppedLogs, cpuMs, hostCalls, wasmMemoryBytes, logCount] = head as [number, number, number, number, number, number, number, number, number];
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
    outcome: { kind: "envelope", text: text.slice(at) },
    logs,
    logBytes,
    droppedLogs,
    cpuMs,
    hostCalls,
    poisoned: poisoned === 1,
    trapped: trapped === 1,
    wasmMemoryBytes,
  };
}
