import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { cutWithMarker, errorBytes, fitErrorToBudget, logEntryBytes, prefixWithinBytes } from "../../src/sandbox/host/output-budget.js";
import { HostReplyBudget } from "../../src/sandbox/host/reply-budget.js";
import type { GuestErrorInfo, RunResult, SandboxEngine } from "../../src/sandbox/types.js";

const MiB = 1024 * 1024;
let engine: SandboxEngine;

beforeAll(async () => {
  engine = await createQuickJsEngine({ warmWorkers: 1, maxWorkers: 2 });
});
afterAll(async () => {
  await engine?.dispose();
});

function failed(result: RunResult): GuestErrorInfo {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error("the run succeeded");
  return result.error;
}

describe("output budget pieces (pure)", () => {
  it("cuts UTF-8 text by bytes without splitting a character", () => {
    expect(prefixWithinBytes("héllo", 2)).toBe("h");
    expect(prefixWithinBytes("héllo", 3)).toBe("hé");
    expect(prefixWithinBytes("日本語", 7)).toBe("日本");
    expect(prefixWithinBytes("😀😀", 5)).toBe("😀");
    expect(prefixWithinBytes("abc", 10)).toBe("abc");
    expect(prefixWithinBytes("abc", 0)).toBe("");
  });

  it("says how many bytes were cut and which budget", () => {
    const cut = cutWithMarker("z".repeat(10_000), 1000, 4096);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1000);
    const kept = cut.indexOf(" … [");
    expect(cut).toBe(`${"z".repeat(kept)} … [${10_000 - kept} bytes cut: errors count against the output budget (outputBytes = 4096)]`);
    expect(cutWithMarker("short", 1000, 4096)).toBe("short");
  });

  it("fits name, message, stack, snippet and code together into the allowance, keeping the stack's head in step", () => {
    const big = "m".repeat(100_000);
    const error: GuestErrorInfo = { code: "GUEST_ERROR", name: big, message: big, stack: `${big}: ${big}\n    at f (guest.js:1:1)`, errorCode: big };
    const fitted = fitErrorToBudget(error, 8192, 8192);
    expect(errorBytes(fitted)).toBeLessThanOrEqual(8192 + 512);
    expect(fitted.stack?.startsWith(`${fitted.name}: ${fitted.message}`)).toBe(true);
    expect(fitted.message).toContain("bytes cut");
    const small: GuestErrorInfo = { code: "GUEST_ERROR", name: "Error", message: "boom", stack: "Error: boom\n    at f" };
    expect(fitErrorToBudget(small, 8192, 8192)).toBe(small);
  });

  it("a log entry costs its JSON framing, so an empty line is not free", () => {
    expect(logEntryBytes("log", "")).toBe('{"level":"log","message":""}'.length + 1);
    expect(logEntryBytes("info", "\u0001")).toBe('{"level":"info","message":"\\u0001"}'.length + 1);
  });

  it("the reply budget holds up to its limit and no further", () => {
    const budget = new HostReplyBudget(100);
    expect(budget.hold(60)).toBe(true);
    expect(budget.hold(50)).toBe(false);
    expect(budget.heldBytes).toBe(60);
    budget.release(60);
    expect(budget.hold(100)).toBe(true);
  });
});

describe("the quickjs engine counts errors, log framing and host replies against the budgets", () => {
  it("a thrown error far over outputBytes comes back cut to the budget, stats included", async () => {
    const error = failed(await engine.run({ code: 'const e = new Error("y".repeat(200000)); e.name = "n".repeat(200000); throw e;', limits: { outputBytes: 4096 } }));
    expect(error.code).toBe("GUEST_ERROR");
    expect(errorBytes(error)).toBeLessThan(4096 + 512);
    expect(error.message).toMatch(/^y+ … \[\d+ bytes cut: errors count against the output budget \(outputBytes = 4096\)\]$/);
  });

  it("an error keeps its first KiB even when the logs used the whole budget", async () => {
    const result = await engine.run({ code: 'console.log("l".repeat(3000)); throw new Error("e".repeat(5000));', limits: { outputBytes: 4096 } });
    const error = failed(result);
    expect(error.message.startsWith("eeee")).toBe(true);
    expect(errorBytes(error)).toBeLessThan(1024 + 512);
    expect(result.stats.outputBytes).toBe(logEntryBytes("log", "l".repeat(3000)) + errorBytes(error));
  });

  it("empty console.log() calls are metered by their framing: 10,000 of them overflow 100 KB", async () => {
    const result = await engine.run({ code: "for (let i = 0; i < 10000; i++) console.log(); return 1;", limits: { outputBytes: 100_000 } });
    const error = failed(result);
    expect(error.code).toBe("OUTPUT_LIMIT");
    expect(result.logs.length).toBe(Math.floor(100_000 / logEntryBytes("log", "")));
    expect(result.stats.droppedLogs).toBeGreaterThan(0);
  });

  it("stats.outputBytes counts each entry's framing and the result", async () => {
    const result = await engine.run({ code: 'console.warn("hi"); return "ok";' });
    expect(result.ok).toBe(true);
    expect(result.stats.outputBytes).toBe(logEntryBytes("warn", "hi") + '"ok"'.length);
  });

  it("a host reply larger than the run's memory budget is refused before it reaches the guest", async () => {
    const modules = { big: { text: () => "x".repeat(3 * MiB) } };
    const result = await engine.run({
      code: 'try { require("host:big").text(); return "no error"; } catch (e) { return e.name + " " + e.code + ": " + e.message; }',
      modules,
      limits: { memoryBytes: 2 * MiB },
    });
    expect(result.ok && result.value).toMatch(
      /^RangeError HOST_REPLY_OVER_BUDGET: host:big\.text returned \d+ bytes, more than is left of the run's memory budget \(memoryBytes = 2097152\); raise it with --memory/,
    );
  });
});
