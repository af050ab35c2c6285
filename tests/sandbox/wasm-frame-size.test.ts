import { describe, expect, it } from "vitest";
import { keepOptimizedWasmFramesSmall } from "../../src/sandbox/engines/wasm-frame-size.js";

// The effect itself (recursion 1,000 deep once QuickJS's code is hot) is checked on every engine by the
// sandbox conformance suite (tests/sandbox/conformance/escapes.ts); this checks where the flag is set.
describe("keepOptimizedWasmFramesSmall", () => {
  it("leaves V8 12 and later alone: the flag is gone there, and V8 prints an error for an unknown flag", () => {
    expect(keepOptimizedWasmFramesSmall("12.4.254.21-node.57")).toBe(false);
    expect(keepOptimizedWasmFramesSmall("13.6.233.10")).toBe(false);
  });

  it("leaves a version it cannot read alone", () => {
    expect(keepOptimizedWasmFramesSmall("unknown")).toBe(false);
  });

  it.runIf(Number.parseInt(process.versions.v8, 10) <= 11)("sets the flag on this process's V8 11 (Node 20)", () => {
    expect(keepOptimizedWasmFramesSmall()).toBe(true);
  });
});
