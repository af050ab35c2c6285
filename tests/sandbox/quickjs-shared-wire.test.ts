import { describe, expect, it } from "vitest";
import { decodeSharedAnswer, decodeSharedCall, encodeSharedAnswer, encodeSharedCall } from "../../src/sandbox/engines/quickjs-shared-wire.js";

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

  it("refuses text it did not write", () => {
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
