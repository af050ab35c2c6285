import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { cli, makeHome, openHost, scriptedServer, stdioServer, type TrustHome } from "./helpers.js";

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { inner: schema } };
  return schema;
}

let home: TrustHome;
let mcpvm: McpvmHost;

beforeAll(async () => {
  home = await makeHome({
    mcp: { callsPerSecond: 5 },
    servers: (starts, dir) => ({
      good: { ...stdioServer(starts), confirm: "never" },
      sprawling: stdioServer(starts, ["--extra-tools", "600"]),
      hostile: scriptedServer(starts, join(dir, "hostile.json")),
      abyss: scriptedServer(starts, join(dir, "abyss.json")),
    }),
    approve: ["good", "sprawling", "hostile", "abyss"],
  });
  await writeFile(
    join(home.dir, "hostile.json"),
    JSON.stringify({
      tools: [
        { name: "fine", description: "A normal tool." },
        { name: "deep", description: "A schema nested 40 levels deep.", inputSchema: nested(40) },
        { name: "endless", description: "Writes one endless line on stdout." },
        { name: "pid", description: "Process id.", result: String(process.pid) },
      ],
    }),
  );
  // 1,000 levels of properties: the SDK's own validation of the listing overflows the stack.
  await writeFile(join(home.dir, "abyss.json"), JSON.stringify({ tools: [{ name: "fine" }, { name: "abyss", inputSchema: nested(1000) }] }));
  mcpvm = await openHost(home);
});

afterAll(async () => {
  await mcpvm?.close();
  await home?.cleanup();
});

/** After every hostile case: the host still runs code and calls a well-behaved server. */
async function hostStillWorks(): Promise<void> {
  const result = await mcpvm.run(`return require("host:mcp-good").echo({ text: "still here" });`);
  expect(result.ok && result.value).toBe("still here");
}

describe("caps against hostile MCP servers: a clear error, and the host keeps working", () => {
  it("more tools than the cap (500): the server is refused, with the count and what to do", async () => {
    const result = await mcpvm.run(`return require("host:mcp-sprawling");`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.errorCode).toBe("MCP_TOO_MANY_TOOLS");
    expect(result.error.message).toContain("MCP server sprawling lists 610 tools, more than the cap of 500; use allowTools to pick the ones you need.");
    await hostStillWorks();
  });

  it("a schema nested deeper than 32 levels: that tool is dropped and reported, the others stay usable", async () => {
    const result = await mcpvm.run(`const h = require("host:mcp-hostile"); return { keys: Object.keys(h).sort(), fine: h.fine({}) };`);
    expect(result.ok && result.value).toEqual({ keys: ["$batch", "endless", "fine", "pid"], fine: { tool: "fine", args: {} } });
    const info = await cli(home, ["mcp", "info", "hostile"]);
    expect(info.stdout).toContain("dropped deep: schema nests deeper than 32 levels");
    await hostStillWorks();
  });

  it("a schema nested too deep to be parsed at all: the server is refused with that reason, not as a crash of its own", async () => {
    const started = Date.now();
    const result = await mcpvm.run(`return Object.keys(require("host:mcp-abyss"));`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.errorCode).toBe("MCP_CONNECT_FAILED");
    expect(result.error.message).toContain("MCP server abyss failed during start-up: its answer is nested too deeply to be read");
    // mcpvm stopped it; before wave 26 the message blamed the server: "exited during start-up (killed by SIGKILL)".
    expect(result.error.message).not.toContain("SIGKILL");
    expect(Date.now() - started).toBeLessThan(10_000);
    await hostStillWorks();
  });

  it("an endless line on stdout: cut off at the per-message cap, the server disconnected, the call fails clearly", async () => {
    const started = Date.now();
    const result = await mcpvm.run(`
      const h = require("host:mcp-hostile");
      try { h.endless({}); return "no error"; } catch (e) { return e.name + " [" + e.code + "]: " + e.message; }
    `, { limits: { wallMs: 20_000 } });
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toBe(
      "McpTransportError [MCP_TRANSPORT_ERROR]: MCP tool hostile.endless failed: the server wrote a line on stdout longer than 10485760 bytes (the per-message cap); it was cut off and the server disconnected",
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    const service = await mcpvm.requireMcp();
    expect(service.clients.status("hostile").state).toBe("error");
    expect(service.clients.status("hostile").pid).toBeUndefined();
    await hostStillWorks();
  });

  it("a flood of calls is held to calls-per-second; a call that cannot get a slot in time fails with McpRateLimitError", async () => {
    const result = await mcpvm.run(`
      const good = require("host:mcp-good");
      const t0 = Date.now();
      let done = 0;
      while (Date.now() - t0 < 1000) { good.echo({ text: "x" }); done++; }
      return { done, ms: Date.now() - t0 };
    `, { limits: { wallMs: 10_000 } });
    expect(result.ok).toBe(true);
    const { done, ms } = (result.ok ? result.value : {}) as { done: number; ms: number };
    // A burst of 5, then 5 a second: a runaway loop slows down instead of flooding the server.
    expect(done).toBeGreaterThanOrEqual(5);
    expect(done).toBeLessThanOrEqual(5 + Math.ceil((ms / 1000) * 5) + 1);
    const service = await mcpvm.requireMcp();
    let refused: unknown;
    for (let i = 0; i < 10 && refused === undefined; i++) {
      await service.acquireCallSlot("good", { deadline: Date.now() + 20 }).catch((error: unknown) => (refused = error));
    }
    expect(refused).toMatchObject({ name: "McpRateLimitError", code: "MCP_RATE_LIMITED" });
    expect((refused as Error).message).toBe("Calls to MCP server good are limited to 5 per second, and the run's time budget ends before the next slot.");
    await new Promise((r) => setTimeout(r, 1_000));
    await hostStillWorks();
  });
});
