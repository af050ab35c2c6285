import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolsetStore } from "../../../src/gateway/index.js";
import { DEFAULT_SERVER_LIMITS } from "../../../src/mcp/types.js";
import { fixtureServer, makeHome, type TestHome } from "../../gateway/helpers.js";
import { startServeProcess, type ServeProcess } from "../../gateway/serve-process.js";
import { expectRejection, managerFor, waitFor } from "./helpers.js";

/**
 * A 2026-07-28 call over HTTP is one POST answered in its own response, so a server that dies
 * mid-call fails the fetch, and no request stream ends (the 2025 case is in remote.test.ts). The
 * upstream here is mcpvm's own gateway as a real process: it serves 2026-07-28 over HTTP.
 */
describe("a 2026-07-28 upstream over HTTP that dies mid-call", () => {
  let home: TestHome;
  const gateways: ServeProcess[] = [];

  beforeAll(async () => {
    home = await makeHome({ servers: { fx: fixtureServer("/dev/null") } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "t", tools: ["fx.echo", "fx.sleep"] });
    gateways.push(await startServeProcess(home.env, ["--no-auth", "--toolset", "t"]));
  }, 180_000);

  afterAll(async () => {
    for (const gateway of gateways) if (gateway.child.exitCode === null) gateway.child.kill("SIGKILL");
    await home?.cleanup();
  });

  it("fails the call at once as a closed connection naming the URL, and the next call connects again", async () => {
    const first = gateways[0] as ServeProcess;
    const url = first.url.href;
    const made = managerFor([{ name: "gw", transport: "http", url, headers: {}, secrets: [], limits: { ...DEFAULT_SERVER_LIMITS, connectTimeoutMs: 20_000, callTimeoutMs: 25_000 } }], {
      protocol: "auto",
    });
    try {
      expect((await made.manager.connect("gw")).protocol).toEqual({ era: "modern", version: "2026-07-28" });
      expect(await made.manager.callTool("gw", "fx_echo", { text: "up" })).toBe("up");
      const started = Date.now();
      const call = expectRejection(made.manager.callTool("gw", "fx_sleep", { ms: 20_000 }));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      first.child.kill("SIGKILL");
      await first.exited;
      const error = await call;
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(error).toMatchObject({ name: "McpTransportError", code: "MCP_TRANSPORT_CLOSED" });
      expect(error.message).toContain("MCP server gw closed the connection before it answered");
      expect(error.message).toContain(`It stopped or restarted at ${url}; the next call connects again`);
      await waitFor(() => made.manager.status("gw").state === "error");

      gateways.push(await startServeProcess(home.env, ["--no-auth", "--toolset", "t"], Number(first.url.port)));
      expect(await made.manager.callTool("gw", "fx_echo", { text: "again" })).toBe("again");
    } finally {
      await made.manager.closeAll();
    }
  }, 180_000);
});
