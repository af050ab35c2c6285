import { describe, expect, it } from "vitest";
import type { RunReport } from "../../src/sandbox/host/outcome.js";
import type { SharedRunPlan } from "../../src/sandbox/engines/quickjs-shared-protocol.js";
import {
  decodeSharedAnswer,
  decodeSharedCall,
  decodeSharedDone,
  decodeSharedRun,
  encodeSharedAnswer,
  encodeSharedCall,
  encodeSharedDone,
  encodeSharedRun,
} from "../../src/sandbox/engines/quickjs-shared-wire.js";

/**
 * The shared worker's per-call strings: every field a guest chooses may hold the separators, so a
 * call and an answer must come back field for field whatever their text.
 */
describe("shared worker wire", () => {
  const awkward = ["", "plain", "a,b:c", ":", ",,::", "1,2,3,4,5:", "ünï 😀", "\u0000nul", "line\nbreak"];

  it("decodes every call it encodes, whatever the guest put in its names and arguments", () => {
    let callId = 0;
    for (const module of awkward) {
      for (const fn of awkward) {
        for (const argsText of ["[]", '["x:y,z"]', ...awkward]) {
          for (const [listen, live] of [
            [false, false],
            [true, false],
            [true, true],
          ] as const) {
            const runId = 7 + callId;
            const text = encodeSharedCall(runId, callId, module, fn, argsText, listen, live);
            expect(decodeSharedCall(text)).toEqual({ runId, callId, module, fn, argsText, listen, live });
            callId++;
          }
        }
      }
    }
  });

  it("decodes every reply and event it encodes", () => {
    for (const text of ["\u0001ok", '{"ok":true,"value":1}', ...awkward]) {
      expect(decodeSharedAnswer(encodeSharedAnswer("reply", 3, 41, text))).toEqual({ type: "reply", runId: 3, callId: 41, text });
      expect(decodeSharedAnswer(encodeSharedAnswer("event", 12, 0, text))).toEqual({ type: "event", runId: 12, callId: 0, text });
    }
  });

  it("decodes every run it encodes: optional fields absent or present, any text in the script, prelude and manifest", () => {
    const limits = { cpuMs: 10_000, wallMs: 30_000, memoryBytes: 64 * 1024 * 1024, outputBytes: 1_000_000 };
    for (const text of awkward) {
      const plans: SharedRunPlan[] = [
        { code: text, filename: text, manifestText: text, limits, stackBytes: 524_288 },
        { code: `(async () => ${JSON.stringify(text)})`, filename: "guest.js", prelude: text, manifestText: '{"modules":{}}', limits: { ...limits, toolCalls: 0 }, stackBytes: 1, moveAfterCpuMs: 10.5 },
        { code: "", filename: "", prelude: "", manifestText: "", limits: { ...limits, toolCalls: 100 }, stackBytes: 0, moveAfterCpuMs: 0 },
      ];
      for (const [slot, plan] of plans.entries()) expect(decodeSharedRun(encodeSharedRun(9, slot, plan))).toEqual({ runId: 9, slot, plan });
    }
  });

  it("decodes every run's end it encodes in its string form, logs included; other ends stay objects", () => {
    const stats = { engine: "quickjs" as const, wallMs: 1.25, cpuMs: 0.5, hostCalls: 3 };
    for (const text of awkward) {
      const logs = [
        { level: "log" as const, message: text },
        { level: "error" as const, message: `${text}:3:${text}` },
      ];
      for (const report of [
        { outcome: { kind: "envelope" as const, text }, logs: [], logBytes: 0, droppedLogs: 0, stats },
        { outcome: { kind: "envelope" as const, text: `{"ok":true,"value":${JSON.stringify(text)}}` }, logs, logBytes: 40, droppedLogs: 2, stats },
      ]) {
        for (const trapped of [false, true]) {
          const encoded = encodeSharedDone(4, report, trapped);
          expect(encoded).toBeTypeOf("string");
          expect(decodeSharedDone(encoded as string)).toEqual({ type: "done", runId: 4, trapped, report });
        }
      }
    }
    const others: RunReport[] = [
      { outcome: { kind: "limit", limit: "cpuMs" }, logs: [], logBytes: 0, droppedLogs: 0, stats },
      { outcome: { kind: "envelope", text: "{}" }, logs: [], logBytes: 0, droppedLogs: 0, stats: { ...stats, movedAfterCpuMs: 10 } },
    ];
    for (const report of others) expect(encodeSharedDone(1, report, false)).toBeUndefined();
  });

  it("refuses text it did not write", () => {
    expect(decodeSharedRun("r1,2:text")).toBeUndefined();
    expect(decodeSharedRun("s1,2,3:text")).toBeUndefined();
    expect(decodeSharedRun("s1,0,1,1,1,1,,1,,50,,0:short")).toBeUndefined();
    expect(decodeSharedDone("d1,0,0,0,1,1,0,0")).toBeUndefined();
    expect(decodeSharedDone("d1,0,0,0,1,x,0,0:{}")).toBeUndefined();
    expect(decodeSharedDone("d1,0,0,0,1,1,0,1:log:99:short")).toBeUndefined();
    expect(decodeSharedDone("d1,0,0,0,1,1,0,1:log")).toBeUndefined();
    expect(decodeSharedCall("no colon here")).toBeUndefined();
    expect(decodeSharedCall("1,2,3:mod")).toBeUndefined();
    // Names longer than the text that follows the header.
    expect(decodeSharedCall("1,2,0,10,10:short")).toBeUndefined();
    expect(decodeSharedCall("1,2,0,x,1:ab")).toBeUndefined();
    expect(decodeSharedCall("1,2,0,-1,1:ab")).toBeUndefined();
    expect(decodeSharedAnswer("x1,2:text")).toBeUndefined();
    expect(decodeSharedAnswer("r12text")).toBeUndefined();
    expect(decodeSharedAnswer("")).toBeUndefined();
    expect(decodeSharedAnswer("r,1:text")).toBeUndefined();
    expect(decodeSharedAnswer("r1:text")).toBeUndefined();
    expect(decodeSharedAnswer("r1,2")).toBeUndefined();
    expect(decodeSharedCall("1,2,0,4")).toBeUndefined();
    expect(decodeSharedCall(",2,0,1,1:ab")).toBeUndefined();
  });
});
