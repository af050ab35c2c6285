import { describe, expect, it } from "vitest";
import { InvalidLimitsError, resolveLimits } from "../../src/sandbox/limits.js";
import { DEFAULT_LIMITS } from "../../src/sandbox/types.js";

describe("resolveLimits", () => {
  it("fills unset limits from the defaults", () => {
    expect(resolveLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ cpuMs: 50, wallMs: undefined })).toEqual({ ...DEFAULT_LIMITS, cpuMs: 50 });
  });

  it("uses the given defaults", () => {
    const defaults = { cpuMs: 1, wallMs: 2, memoryBytes: 2 * 1024 * 1024, outputBytes: 4 };
    expect(resolveLimits({ outputBytes: 10 }, defaults)).toEqual({ ...defaults, outputBytes: 10 });
  });

  it.each([
    [{ cpuMs: 0 }, "cpuMs"],
    [{ wallMs: 1.5 }, "wallMs"],
    [{ memoryBytes: 1024 }, "memoryBytes"],
    [{ outputBytes: -1 }, "outputBytes"],
    [{ cpuMs: "10" as unknown as number }, "cpuMs"],
  ])("refuses %j naming the field", (partial, field) => {
    try {
      resolveLimits(partial);
      expect.fail("invalid limits were accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidLimitsError);
      expect((error as InvalidLimitsError).code).toBe("INVALID_LIMITS");
      expect((error as InvalidLimitsError).message).toContain(field);
    }
  });

  it("refuses unknown limit names", () => {
    expect(() => resolveLimits({ gpuMs: 1 } as never)).toThrowError(InvalidLimitsError);
  });

  it("validates a set of limits once (the same frozen result for the same numbers), and an invalid set every time", () => {
    const first = resolveLimits({ cpuMs: 1234, toolCalls: 50 });
    expect(resolveLimits({ toolCalls: 50, cpuMs: 1234, wallMs: undefined })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(resolveLimits({ cpuMs: 1235, toolCalls: 50 })).toEqual({ ...DEFAULT_LIMITS, cpuMs: 1235, toolCalls: 50 });
    // Other defaults, other result; defaults that are not frozen are never remembered.
    const defaults = { cpuMs: 1, wallMs: 2, memoryBytes: 2 * 1024 * 1024, outputBytes: 4 };
    expect(resolveLimits({ cpuMs: 1234, toolCalls: 50 }, defaults)).toEqual({ ...defaults, cpuMs: 1234, toolCalls: 50 });
    for (let i = 0; i < 3; i++) expect(() => resolveLimits({ cpuMs: 0 })).toThrowError(InvalidLimitsError);
    for (let i = 0; i < 3; i++) expect(() => resolveLimits({ cpuMs: Number.NaN })).toThrowError(InvalidLimitsError);
  });
});
