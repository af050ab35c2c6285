import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import type { McpvmHost } from "../../../src/host/index.js";
import { RunCallBudget } from "../../../src/sandbox/host/call-budget.js";
import { DEFAULT_TOOL_CALLS } from "../../../src/sandbox/types.js";
import { captureIo } from "../../support/cli-io.js";
import { errorOf, fixtureServer, makeHome, valueOf, type E2eHome } from "../../e2e/helpers.js";

/**
 * No silent throttling: without `callsPerSecond` a loop of calls meets no rate limiter at all, and
 * what bounds a runaway loop is the run's tool-call budget (limits.toolCalls), which fails loudly.
 */

const LOOP = (n: number) => `
  const fx = require("host:mcp-fx");
  let done = 0;
  try {
    for (let i = 0; i < ${n}; i++) { if (fx.echo({ text: "n" + i }) !== "n" + i) throw new Error("wrong echo " + i); done++; }
  } catch (e) { return { done, name: e.name, code: e.code, message: e.message }; }
  return { done };
`;

describe("RunCallBudget", () => {
  it("takes calls up to its limit; a take that would go over takes nothing", () => {
    const budget = new RunCallBudget(3);
    expect(budget.take(2)).toBe(true);
    expect(budget.take(2)).toBe(false);
    expect(budget.used).toBe(2);
    expect(budget.take(1)).toBe(true);
    expect(budget.take(1)).toBe(false);
    expect(budget.used).toBe(3);
  });
});

describe("per-run tool-call budget, and no rate limit by default", () => {
  let home: E2eHome;
  let host: McpvmHost;

  beforeAll(async () => {
    home = await makeHome({ servers: (dir) => ({ fx: fixtureServer(join(dir, "fx.starts"), "", { confirm: "never" }) }) });
    host = await home.open();
  });

  afterAll(async () => {
    await host?.close();
    await home?.cleanup();
  });

  it("300 sequential calls all go through and no rate limiter is ever consulted (none configured)", async () => {
    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { plugins: { mcp: { config: Record<string, unknown> } } };
    expect(config.plugins.mcp.config).not.toHaveProperty("callsPerSecond");
    expect(valueOf(await host.run(LOOP(300)))).toEqual({ done: 300 });
    const service = await host.requireMcp();
    expect(service.rateLimiter("fx")).toBeUndefined();
    expect(DEFAULT_TOOL_CALLS).toBeGreaterThanOrEqual(300);
  });

  it("the call past the budget fails with ToolCallLimitError naming the budget, the flag and the config key", async () => {
    const value = valueOf(await host.run(LOOP(10), { limits: { toolCalls: 4 } })) as Record<string, unknown>;
    expect(value).toMatchObject({ done: 4, name: "ToolCallLimitError", code: "TOOL_CALL_LIMIT" });
    expect(value.message).toBe(
      "MCP call to fx.echo refused: this call would go over the run's tool-call budget (toolCalls = 4); raise it with `mcpvm run --tool-calls <n>` or config.json limits.toolCalls (4 used so far in this run).",
    );
    // The budget is per run: the next run starts with a full one.
    expect(valueOf(await host.run(LOOP(4), { limits: { toolCalls: 4 } }))).toEqual({ done: 4 });
  });

  it("a $batch is taken whole or not at all", async () => {
    const value = valueOf(
      await host.run(
        `const fx = require("host:mcp-fx");
         let refused;
         try { fx.$batch("echo", [1, 2, 3, 4, 5, 6].map((i) => ({ text: "b" + i }))); } catch (e) { refused = e.code; }
         const fits = fx.$batch("echo", [1, 2, 3, 4, 5].map((i) => ({ text: "b" + i })));
         let after;
         try { fx.echo({ text: "one more" }); } catch (e) { after = e.code; }
         return { refused, fits: fits.map((r) => r.value), after };`,
        { limits: { toolCalls: 5 } },
      ),
    );
    expect(value).toEqual({ refused: "TOOL_CALL_LIMIT", fits: ["b1", "b2", "b3", "b4", "b5"], after: "TOOL_CALL_LIMIT" });
  });

  it("an uncaught budget error fails the run with its code", async () => {
    const error = errorOf(await host.run(`const fx = require("host:mcp-fx"); for (;;) fx.echo({ text: "x" });`, { limits: { toolCalls: 3 } }));
    expect(error.errorCode).toBe("TOOL_CALL_LIMIT");
    expect(error.message).toContain("toolCalls = 3");
  });

  it("mcpvm run: --tool-calls sets it, exit code 4; config.json limits.toolCalls sets it too; a bad value is a usage error", async () => {
    const loop = `const fx = require("host:mcp-fx"); for (let i = 0; i < 5; i++) fx.echo({ text: "x" }); return "done";`;
    const flagged = captureIo(home.env);
    expect(await runCli(["run", "-e", loop, "--tool-calls", "2"], flagged)).toBe(4);
    expect(flagged.stderrText()).toContain("TOOL_CALL_LIMIT");
    expect(flagged.stderrText()).toContain("--tool-calls");

    const raised = captureIo(home.env);
    expect(await runCli(["run", "-e", loop, "--tool-calls", "5"], raised)).toBe(0);
    expect(raised.stdoutText().trim()).toBe("done");

    const configFile = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(configFile, "utf8")) as Record<string, unknown>;
    await writeFile(configFile, JSON.stringify({ ...config, limits: { toolCalls: 3 } }));
    try {
      const fromConfig = captureIo(home.env);
      expect(await runCli(["run", "-e", loop], fromConfig)).toBe(4);
      expect(fromConfig.stderrText()).toContain("toolCalls = 3");
    } finally {
      await writeFile(configFile, JSON.stringify(config));
    }

    const bad = captureIo(home.env);
    expect(await runCli(["run", "-e", loop, "--tool-calls", "lots"], bad)).toBe(2);
    expect(bad.stderrText()).toContain("--tool-calls takes a whole number of calls");
  });
});

describe("the opt-in per-server rate limit (plugins.mcp.config.callsPerSecond)", () => {
  let home: E2eHome;
  let host: McpvmHost;

  beforeAll(async () => {
    home = await makeHome({ servers: (dir) => ({ fx: fixtureServer(join(dir, "fx.starts"), "", { confirm: "never" }) }), mcp: { callsPerSecond: 5 } });
    host = await home.open();
  });

  afterAll(async () => {
    await host?.close();
    await home?.cleanup();
  });

  it("still holds calls to its rate: past the burst, callers wait for a slot", async () => {
    const started = performance.now();
    expect(valueOf(await host.run(LOOP(8), { limits: { wallMs: 20_000 } }))).toEqual({ done: 8 });
    const elapsedMs = performance.now() - started;
    const limiter = (await host.requireMcp()).rateLimiter("fx");
    expect(limiter).toBeDefined();
    // A bucket of 5 refilled at 5 a second lets at most 5 + 5t calls through in t seconds: 8 calls take
    // at least 0.6 s however fast the server answers (a slow machine only adds time, and refills tokens
    // meanwhile, so how many callers waited depends on the load; that one did does not).
    expect(elapsedMs).toBeGreaterThanOrEqual(590);
    expect(limiter?.waits).toBeGreaterThanOrEqual(1);
  });
});
