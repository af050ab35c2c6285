import { describe, expect, it } from "vitest";
import type { DoneMessage, RunMessage } from "../../src/sandbox/engines/quickjs-protocol.js";
import { decodeThreadDone, decodeThreadRun, encodeThreadDone, encodeThreadRun } from "../../src/sandbox/engines/quickjs-thread-wire.js";

/**
 * A thread-mode worker's run and result as strings: every field a guest chooses (file name, prelude,
 * code, log messages, the envelope) may hold the separators, so each must come back as it went.
 */
describe("thread worker wire", () => {
  const awkward = ["", "plain", "a,b:c", ":", ",,::", "1,2,3,4,5:", "ünï 😀", "\u0000nul", "line\nbreak"];
  const limits = { cpuMs: 30_000, wallMs: 60_000, memoryBytes: 64 * 1024 * 1024, outputBytes: 1024 * 1024 };

  it("decodes every run it encodes, with or without a prelude and a tool-call budget", () => {
    let runId = 1;
    for (const text of awkward) {
      for (const prelude of [undefined, "", text]) {
        for (const toolCalls of [undefined, 7]) {
          const run: RunMessage = {
            type: "run",
            runId: runId++,
            code: `(async function main() { return ${JSON.stringify(text)}; })`,
            filename: text,
            ...(prelude === undefined ? {} : { prelude }),
            manifestText: `{"names":[]}\n${text}\n`,
            limits: toolCalls === undefined ? limits : { ...limits, toolCalls },
            deadline: 1_790_000_000_123,
            stackBytes: 512 * 1024,
          };
          expect(decodeThreadRun(encodeThreadRun(run))).toEqual(run);
        }
      }
    }
  });

  it("decodes every envelope result it encodes, logs and flags field for field", () => {
    for (const text of awkward) {
      for (const logs of [[], [{ level: "log" as const, message: text }, { level: "warn" as const, message: "x:1:y" }]]) {
        const done: DoneMessage = {
          type: "done",
          runId: 42,
          outcome: { kind: "envelope", text: `{"ok":true,"value":${JSON.stringify(text)}}` },
          logs,
          logBytes: 17,
          droppedLogs: 2,
          cpuMs: 0.123456789,
          hostCalls: 3,
          poisoned: text === "",
          trapped: false,
          wasmMemoryBytes: 16 * 1024 * 1024,
        };
        expect(decodeThreadDone(encodeThreadDone(done) as string)).toEqual(done);
      }
    }
  });

  it("leaves any other outcome to the object message, and refuses text it did not write", () => {
    const failed: DoneMessage = {
      type: "done",
      runId: 1,
      outcome: { kind: "limit", limit: "cpuMs" },
      logs: [],
      logBytes: 0,
      droppedLogs: 0,
      cpuMs: 1,
      hostCalls: 0,
      poisoned: true,
      trapped: false,
      wasmMemoryBytes: 0,
    };
    expect(encodeThreadDone(failed)).toBeUndefined();
    for (const text of ["", "x", "r1,2:", "d1,2,3:", "dx,0,0,0,0,0,0,0,0:", "d1,0,0,0,0,0,0,0,1:log:99:short", "r1,2,3,4,5,,6,7,99,,0:a"]) {
      expect(decodeThreadRun(text)).toBeUndefined();
      expect(decodeThreadDone(text)).toBeUndefined();
    }
  });
});
