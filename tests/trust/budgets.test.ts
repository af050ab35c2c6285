import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway } from "../../src/gateway/index.js";
import type { McpvmHost } from "../../src/host/index.js";
import { cli, makeHome, openHost, stdioServer, type TrustHome } from "./helpers.js";

/**
 * Issue 17 item 6, written as the attack: output and memory budgets bypassed through the host side
 * (errors, log framing, $batch). Each case fails on a build without the budget accounting.
 */

const MiB = 1024 * 1024;
const BUDGET = MiB; // the default outputBytes
// A 20 MB error in the guest needs room in its heap to be built and reported at all.
const ROOMY = { memoryBytes: 400 * MiB, wallMs: 60_000, cpuMs: 60_000 };
const HUGE_ERROR = `
  const big = "x".repeat(20 * 1000 * 1000);
  const e = new Error(big);
  e.name = big;
  e.stack = big;
  throw e;
`;

let home: TrustHome;
let mcpvm: McpvmHost;

beforeAll(async () => {
  home = await makeHome({
    mcp: { callsPerSecond: 10_000 },
    servers: (starts) => ({ bytes: { ...stdioServer(starts), confirm: "never" } }),
    approve: ["bytes"],
  });
  mcpvm = await openHost(home);
}, 60_000);

afterAll(async () => {
  await mcpvm?.close();
  await home?.cleanup();
});

async function gatewayCall(script: string): Promise<{ text: string; structured: Record<string, unknown> }> {
  const token = "budgets-token-0123456789abcdef";
  const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token, logLevel: "error", pretty: false });
  const client = new Client({ name: "budgets-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const result = await client.callTool({ name: "run_mcp_script", arguments: { script, timeoutMs: 60_000 } }, { timeout: 120_000 });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    return { text: JSON.stringify(result), structured: JSON.parse(text) as Record<string, unknown> };
  } finally {
    await client.close();
    await running.close();
  }
}

describe("errors count against the output budget", () => {
  it("a thrown error with a 20 MB message, name and stack is cut to the budget, with a marker saying how much", async () => {
    const result = await mcpvm.run(HUGE_ERROR, { limits: ROOMY });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = JSON.stringify(result.error);
    expect(text.length).toBeLessThan(BUDGET + 4096);
    expect(result.stats.outputBytes).toBeLessThan(BUDGET + 4096);
    expect(result.error.message).toMatch(/ … \[\d+ bytes cut: errors count against the output budget \(outputBytes = 1048576\)\]$/);
    expect(result.error.message.startsWith("xxxxxxxx")).toBe(true);
    expect(result.error.name?.length).toBeLessThan(400);
  }, 120_000);

  it("`mcpvm run` prints at most about the budget, not 40 MB", async () => {
    const out = await cli(home, ["run", "-e", HUGE_ERROR, "--memory", "400MB", "--timeout", "60s", "--cpu", "60s"]);
    expect(out.code).toBe(1);
    expect(out.stdout.length + out.stderr.length).toBeLessThan(BUDGET + 8192);
    expect(out.stderr).toContain("bytes cut: errors count against the output budget");
  }, 120_000);

  it("run_mcp_script answers with at most a few times the budget, not 2 × the error", async () => {
    // The gateway runs with the default 64 MiB memory. Building the 3 × 6 MB error envelope (JSON's
    // buffer grows by reallocation) needs the heap to grow by ~41 MiB. With 8 MB strings it needs ~76 MiB,
    // measured with the heap grown exactly as the allocator asks: over the budget, so MEMORY_LIMIT is the
    // right answer there, not a miscount (the 1.2x-headroom miscount is fixed; see quickjs-heap.ts).
    const { text, structured } = await gatewayCall(HUGE_ERROR.replace("20 * 1000 * 1000", "6 * 1000 * 1000"));
    expect(text.length).toBeLessThan(4 * BUDGET);
    expect((structured.error as { message: string }).message).toContain("bytes cut");
  }, 120_000);
});

describe("log framing and entry counts count against the output budget", () => {
  it("1,000,000 empty console.log() calls end with OUTPUT_LIMIT inside the budget", async () => {
    const result = await mcpvm.run(`for (let i = 0; i < 1000000; i++) console.log(); return "done";`, { limits: { wallMs: 60_000, cpuMs: 60_000 } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("OUTPUT_LIMIT");
    expect(result.stats.outputBytes).toBeLessThanOrEqual(BUDGET + 4096);
    expect(JSON.stringify(result.logs).length).toBeLessThanOrEqual(BUDGET);
    expect(result.stats.droppedLogs).toBeGreaterThan(0);
  }, 120_000);

  it("through the gateway, 1,000,000 empty console.log() calls give a result of a few MiB, not 96 MB", async () => {
    const { text, structured } = await gatewayCall(`for (let i = 0; i < 1000000; i++) console.log(); return "done";`);
    expect((structured.error as { code: string }).code).toBe("OUTPUT_LIMIT");
    expect(text.length).toBeLessThan(8 * BUDGET);
  }, 120_000);
});

describe("$batch results count against the run's memory budget", () => {
  it("1,000 × 1 MB results stop at memoryBytes with a clear error, and the host does not grow by gigabytes", async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const result = await mcpvm.run(
        `const s = require("host:mcp-bytes");
         try {
           const got = await s.$batch("huge", Array.from({ length: 1000 }, () => ({ bytes: 1000000 })), { concurrency: 16 });
           return { got: got.length };
         } catch (e) { return { name: e.name, code: e.code, message: e.message }; }`,
        { limits: { wallMs: 120_000, cpuMs: 60_000 } },
      );
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const value = result.value as { code?: string; message?: string };
      expect(value.code).toBe("HOST_REPLY_OVER_BUDGET");
      expect(value.message).toMatch(/^\$batch stopped after \d+ of 1000 or more results: together they would hold more than the run's memory budget \(memoryBytes = 67108864\); raise it with --memory or config\.json limits\.memoryBytes/);
      expect(value.message).toContain("the remaining calls were cancelled");
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before).toBeLessThan(400 * MiB);
    // The host and the server still work after the cancelled batch.
    const after = await mcpvm.run(`return require("host:mcp-bytes").echo({ text: "still here" });`);
    expect(after.ok && after.value).toBe("still here");
  }, 180_000);
});
