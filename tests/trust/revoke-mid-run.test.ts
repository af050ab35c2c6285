import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpvmHost } from "../../src/host/index.js";
import { McpApprovalStore } from "../../src/mcp/approval/index.js";
import { RACY_WINDOW_MS } from "../../src/mcp/service/index.js";
import { makeHome, startCount, stdioServer, type TrustHome } from "./helpers.js";

/**
 * The per-call approval re-check inside one guest run, on both QuickJS engines: calls pass on the
 * cheap path (the approvals file unchanged since the last full check, one stat a call), and a revoke
 * written by another process while the script loops refuses the script's very next call.
 */

const homes: TrustHome[] = [];
const hosts: McpvmHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  for (const home of homes.splice(0)) await home.cleanup();
});

const LOOP = `
const fx = require("host:mcp-fx");
let calls = 0;
try {
  for (;;) {
    if (fx.echo({ text: "call " + calls }) !== "call " + calls) return { calls, code: "wrong answer" };
    calls++;
    if (calls >= 20000) return { calls, code: "never refused" };
  }
} catch (error) {
  return { calls, code: error.code, name: error.name };
}`;

describe.each(["quickjs", "quickjs-inline"] as const)("a revoke mid-run on the %s engine", (engine) => {
  it("refuses the next call of the same run", async () => {
    const home = await makeHome({ servers: (starts) => ({ fx: { ...stdioServer(starts), confirm: "never" } }), approve: ["fx"] });
    homes.push(home);
    const host = await McpvmHost.open({ env: home.env, engine });
    hosts.push(host);
    // Calls before the loop start the server; then the approvals file ages past the racy window, so
    // the loop's calls take the cached path (a stat per call) that the revoke must still break.
    const warm = await host.run(`return require("host:mcp-fx").echo({ text: "warm" });`);
    expect(warm.ok ? warm.value : warm.error).toBe("warm");
    await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 200));

    const running = host.run(LOOP, { limits: { toolCalls: 1_000_000, wallMs: 60_000, cpuMs: 60_000 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Another process's store on the same file, as `mcpvm mcp revoke` in a second terminal.
    expect(await new McpApprovalStore(join(home.dir, "approved-mcp.json")).revoke("fx")).toBe(true);
    const result = await running;
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as { calls: number; code: string };
    expect(value.code).toBe("MCP_NOT_APPROVED");
    // Calls went through before the revoke (the loop was really running on the cached path).
    expect(value.calls).toBeGreaterThan(0);
    expect(startCount(home.starts)).toBe(1);
  });
});
