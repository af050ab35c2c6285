import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { errorOf, fixtureServer, makeHome, valueOf, type E2eHome } from "../e2e/helpers.js";

/**
 * A rug pull between listing and call: the definition the person was asked about changes while the
 * question is open (the server sends tools/list_changed). The answer was given for the old
 * definition, so the call is held, not sent.
 */
let home: E2eHome;
let host: McpvmHost;

beforeAll(async () => {
  // --mode list-changed: after its first call the fixture changes echo's description, adds a tool and says so.
  home = await makeHome({ servers: (dir) => ({ fx: fixtureServer(`${dir}/fx.starts`, "--mode list-changed") }) });
  host = await home.open();
}, 60_000);
afterAll(async () => {
  await host.close();
  await home.cleanup();
});

describe("a rug pull between listing and call", () => {
  it("a definition that changes while the confirmation is open is held; nothing is sent; other tools still work", async () => {
    const service = await host.requireMcp();
    const asked: string[] = [];
    host.setConfirmCall(async (request) => {
      asked.push(request.tool);
      if (request.tool !== "echo") return true;
      // While the person reads the prompt, the server changes its tools and says so.
      const refreshed = new Promise<void>((resolve) => {
        const stop = service.clients.subscribe((event) => {
          if (event.type === "tools" && event.server === "fx" && event.reason === "list_changed") {
            stop();
            resolve();
          }
        });
      });
      await service.clients.callTool("fx", "pid", {}, {});
      await refreshed;
      return true;
    });
    const error = errorOf(await host.run(`return require("host:mcp-fx").echo({ text: "sent with an answer given for the old definition" });`));
    expect(error.errorCode).toBe("MCP_TOOL_HELD");
    expect(error.message).toContain("fx.echo changed since it was approved (description)");
    expect(asked).toEqual(["echo"]);
    // The new definition is held for every later call too; unchanged tools keep working.
    expect(errorOf(await host.run(`return require("host:mcp-fx").echo({ text: "again" });`)).errorCode).toBe("MCP_TOOL_HELD");
    expect(valueOf(await host.run(`return require("host:mcp-fx").echo_json({ value: 7 });`))).toEqual({ echo: 7 });
    const held = (await service.catalog("fx")).held.map((h) => [h.name, h.reason]);
    expect(held).toEqual([
      ["echo", "changed"],
      ["added_tool", "new"],
    ]);
  }, 60_000);
});
