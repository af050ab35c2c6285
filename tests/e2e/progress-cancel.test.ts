import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { childPids, errorOf, isAlive, makeHome, ROOT, valueOf, waitFor, type E2eHome } from "./helpers.js";

/**
 * Guest progress (`{ onProgress }`) and cancellation of a run's in-flight upstream calls, through
 * the whole stack against the full-feature fixture, which appends `started slow_echo <text>` and
 * `cancelled slow_echo <text>` to MCPVM_FULL_EVENTS when notifications/cancelled reaches it.
 */
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");

let home: E2eHome;
let host: McpvmHost;
let eventsFile: string;

const upstreamEvents = (): string[] => (existsSync(eventsFile) ? readFileSync(eventsFile, "utf8").split("\n").filter((line) => line !== "") : []);

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => {
      eventsFile = join(dir, "full-events.log");
      return { full: { command: process.execPath, args: [FULL], env: { MCPVM_FULL_EVENTS: join(dir, "full-events.log") } } };
    },
  });
  host = await home.open();
});

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
});

describe("progress of a tool call in guest code", () => {
  it("calls onProgress with { progress, total, message } for each notification, in order, before the call returns", async () => {
    const result = await host.run(`
      const full = require("host:mcp-full");
      const events = [];
      const token = full.test_tool_with_progress({}, { onProgress: (p) => events.push(p) });
      events.push("returned");
      const viaTools = [];
      await tools.full.test_tool_with_progress({}, { onProgress: (p) => viaTools.push(p.progress) });
      return { token, events, viaTools, without: full.test_tool_with_progress({}) };
    `);
    const value = valueOf(result) as { token: string; events: unknown[]; viaTools: number[]; without: string };
    expect(value.events).toEqual([
      { progress: 0, total: 100, message: "Completed step 0 of 100" },
      { progress: 50, total: 100, message: "Completed step 50 of 100" },
      { progress: 100, total: 100, message: "Completed step 100 of 100" },
      "returned",
    ]);
    expect(value.viaTools).toEqual([0, 50, 100]);
    // A progressToken is sent only when the guest listens.
    expect(value.token).not.toBe("no progress token");
    expect(value.without).toBe("no progress token");
  });

  it("the last notification, read with the response, still reaches onProgress (the SDK alone drops it)", async () => {
    const result = await host.run(`
      const full = require("host:mcp-full");
      const runs = [];
      for (let i = 0; i < 5; i += 1) {
        const seen = [];
        full.test_tool_with_progress({ burst: true }, { onProgress: (p) => seen.push(p.progress) });
        runs.push(seen.join(","));
      }
      return runs;
    `);
    expect(valueOf(result)).toEqual(Array(5).fill("0,50,100"));
  });

  it("a $batch's onProgress names the item each event belongs to", async () => {
    const result = await host.run(`
      const events = [];
      const results = require("host:mcp-full").$batch("test_tool_with_progress", [{}, {}], { concurrency: 2, onProgress: (p) => events.push(p.item + ":" + p.progress) });
      return { ok: results.map((r) => r.ok), events: events.sort() };
    `);
    expect(valueOf(result)).toEqual({ ok: [true, true], events: ["0:0", "0:100", "0:50", "1:0", "1:100", "1:50"] });
  });

  it("an upstream flooding progress is capped (maxNotificationsPerSecond); the call and the run carry on", async () => {
    const result = await host.run(`
      const full = require("host:mcp-full");
      let heard = 0;
      let last = 0;
      let ordered = true;
      const answer = full.flood({ kind: "progress", count: 5000 }, { onProgress: (p) => { heard += 1; if (p.progress <= last) ordered = false; last = p.progress; } });
      return { answer, heard, ordered, after: full.test_simple_text({}) };
    `);
    const value = valueOf(result) as { answer: string; heard: number; ordered: boolean; after: string };
    expect(value.answer).toBe("sent 5000");
    expect(value.heard).toBeGreaterThan(0);
    expect(value.heard).toBeLessThan(500);
    expect(value.ordered).toBe(true);
    expect(value.after).toBe("This is a simple text response for testing.");
  });
});

describe("a run that ends cancels its in-flight upstream calls (notifications/cancelled)", () => {
  const expectCancelled = async (text: string): Promise<void> => {
    await waitFor(() => upstreamEvents().includes(`cancelled slow_echo ${text}`), `the upstream to record the cancellation of "${text}"`, 10_000);
    expect(upstreamEvents()).toContain(`started slow_echo ${text}`);
  };

  it("on the wall limit (the guest blocked in the call)", async () => {
    const result = await host.run('return require("host:mcp-full").slow_echo({ text: "wall", ms: 60000 });', { limits: { wallMs: 2_000 } });
    // The call is given the run's remaining wall time (less a reserve), so it is the call that times out, by name.
    expect(errorOf(result).message).toMatch(/MCP tool full\.slow_echo did not answer/);
    await expectCancelled("wall");
  });

  it("when the script throws with a call still in flight", async () => {
    const result = await host.run(`
      // An async call is sent once the guest yields (here: awaiting the second one).
      tools.full.slow_echo({ text: "thrown", ms: 60000 }).catch(() => undefined);
      await tools.full.slow_echo({ text: "delay", ms: 400 });
      throw new Error("the script failed");
    `);
    expect(errorOf(result).message).toContain("the script failed");
    await expectCancelled("thrown");
  });

  it("when the script returns with a call still in flight", async () => {
    const result = await host.run(`
      tools.full.slow_echo({ text: "returned", ms: 60000 }).catch(() => undefined);
      await tools.full.slow_echo({ text: "delay", ms: 400 });
      return "done";
    `);
    expect(valueOf(result)).toBe("done");
    await expectCancelled("returned");
  });

  it("when the tool-call budget runs out", async () => {
    const result = await host.run(
      `
      tools.full.slow_echo({ text: "budget", ms: 60000 }).catch(() => undefined);
      await tools.full.slow_echo({ text: "delay", ms: 400 });
      require("host:mcp-full").test_simple_text({});
    `,
      { limits: { toolCalls: 2 } },
    );
    expect(errorOf(result).errorCode).toBe("TOOL_CALL_LIMIT");
    await expectCancelled("budget");
  });

  it("when the run is cancelled (Ctrl-C in the REPL, a gateway client's cancel)", async () => {
    const controller = new AbortController();
    const running = host.run('return require("host:mcp-full").slow_echo({ text: "aborted", ms: 60000 });', { signal: controller.signal });
    await waitFor(() => upstreamEvents().includes("started slow_echo aborted"), "the call to reach the upstream", 15_000);
    controller.abort();
    expect(errorOf(await running).code).toBe("CANCELLED");
    await expectCancelled("aborted");
  });

  it("on SIGINT to `mcpvm run` (a real process): exit 130, the upstream call cancelled", async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/e2e/fixtures/cli-entry.ts"), "--", "--yes", "run", "-e", 'return require("host:mcp-full").slow_echo({ text: "sigint", ms: 60000 });'],
      { env: { ...process.env, ...home.env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await waitFor(() => upstreamEvents().includes("started slow_echo sigint") || child.exitCode !== null, "the call to reach the upstream", 60_000);
      if (child.exitCode !== null) throw new Error(`mcpvm run exited (${child.exitCode}) before its call reached the upstream: ${stderr}`);
      child.kill("SIGINT");
      expect(await exited, stderr).toBe(130);
      await expectCancelled("sigint");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 90_000);
});

describe("SIGINT to `mcpvm run` while the guest computes (a real process)", () => {
  // The in-thread engine runs the guest on the main thread: the signal is handled between its time
  // slices (src/sandbox/engines/quickjs-yield.ts). The worker engine's guest has a thread of its own.
  it.each(["quickjs-inline", "quickjs"])("--engine %s: exit 130 long before the CPU limit, the server it started closed", async (engine) => {
    const text = `loop-${engine}`;
    const code = `require("host:mcp-full").slow_echo({ text: "${text}", ms: 1 }); while (true) {}`;
    const child = spawn(
      process.execPath,
      [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/e2e/fixtures/cli-entry.ts"), "--", "--yes", "run", "--engine", engine, "--cpu", "60s", "--timeout", "60s", "-e", code],
      { env: { ...process.env, ...home.env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await waitFor(() => upstreamEvents().includes(`started slow_echo ${text}`) || child.exitCode !== null, "the guest's call to reach the upstream", 60_000);
      if (child.exitCode !== null) throw new Error(`mcpvm run exited (${child.exitCode}) before its call reached the upstream: ${stderr}`);
      const servers = childPids(child.pid);
      expect(servers.length).toBeGreaterThan(0);
      // The guest is in its loop by now (its call was answered within ms).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(child.exitCode).toBeNull();
      const signalled = Date.now();
      child.kill("SIGINT");
      expect(await exited, stderr).toBe(130);
      // Far below the run's 60 s limits (speed itself is measured by the bench, not here).
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(stderr).toMatch(/cancel/i);
      await waitFor(() => servers.every((pid) => !isAlive(pid)), "the MCP server mcpvm started to exit", 10_000);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 90_000);
});
