import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { childPids, cli, errorOf, fixtureServer, isAlive, makeHome, readStarts, valueOf, waitFor, type E2eHome } from "./helpers.js";

/**
 * Trust through the whole stack: approval before spawn (guest code and CLI alike), revoke that
 * disconnects and stays disconnected, and tool definitions that change after approval (rug pull)
 * held until the person accepts them.
 */

let home: E2eHome;
let host: McpvmHost;
const starts = (name: string) => readStarts(join(home.dir, `${name}.starts`));
const baseline = childPids().length;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      vetted: fixtureServer(join(dir, "vetted.starts")),
      unvetted: fixtureServer(join(dir, "unvetted.starts")),
      victim: fixtureServer(join(dir, "victim.starts")),
      remote: fixtureServer(join(dir, "remote.starts")),
      shifty: fixtureServer(join(dir, "shifty.starts"), "--mode list-changed"),
      rug: fixtureServer(join(dir, "rug.starts"), "--mode rug-pull"),
    }),
    approve: ["vetted", "victim", "remote", "shifty", "rug"],
  });
  host = await home.open();
});

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
  expect(childPids()).toHaveLength(baseline);
});

describe("an unapproved server is never started", () => {
  it("by guest code: require and the tools global fail with MCP_NOT_APPROVED, approved servers keep working", async () => {
    const result = await host.run(`
      const out = [];
      try { require("host:mcp-unvetted"); } catch (error) { out.push([error.name, error.code]); }
      try { await tools.unvetted.echo({ text: "x" }); } catch (error) { out.push([error.name, error.code, error.message]); }
      out.push(require("host:mcp-vetted").echo({ text: "fine" }));
      return out;
    `);
    const [fromRequire, fromTools, fine] = valueOf(result) as [string[], string[], string];
    expect(fromRequire).toEqual(["McpApprovalError", "MCP_NOT_APPROVED"]);
    expect(fromTools?.slice(0, 2)).toEqual(["McpApprovalError", "MCP_NOT_APPROVED"]);
    expect(fromTools?.[2]).toContain("mcpvm mcp approve unvetted");
    expect(fine).toBe("fine");
    expect(starts("unvetted")).toEqual([]);
  });

  it("by the CLI: `mcp info` shows what would run without running it, `mcp types` and `run` refuse with exit 5", async () => {
    const info = await cli(home, ["mcp", "info", "unvetted"]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain("fixture-server.mjs");
    expect(info.stdout).toContain("unvetted is not approved, so it was not started and its tools are not listed.");

    const types = await cli(home, ["mcp", "types", "unvetted"]);
    expect(types.code).toBe(5);
    expect(types.stderr).toContain("[MCP_NOT_APPROVED]");

    const run = await cli(home, ["run", "-"], `return require("host:mcp-unvetted").echo({ text: "x" });`);
    expect(run.code).toBe(5);

    const list = await cli(home, ["mcp", "list"]);
    expect(list.stdout).toMatch(/unvetted\s+stdio\s+needs approval\s+not approved/);
    expect(starts("unvetted")).toEqual([]);
  });
});

describe("revoking an approval", () => {
  it("in the session (/mcp revoke) disconnects the running server at once, and the next call does not reconnect", async () => {
    const pid = valueOf(await host.run(`return require("host:mcp-victim").pid({}).pid;`)) as number;
    expect(isAlive(pid)).toBe(true);
    await (await host.requireMcp()).revoke("victim");
    await waitFor(() => !isAlive(pid), "the revoked server to stop");
    const error = errorOf(await host.run(`return require("host:mcp-victim").pid({});`));
    expect(error).toMatchObject({ name: "McpApprovalError", errorCode: "MCP_NOT_APPROVED" });
    // It ran a moment ago: the refusal says the approval was revoked, not that the server "was not started".
    expect(error.message).toContain('MCP server "victim" was approved when mcpvm started using it, but its approval has been revoked since');
    expect(error.message).toContain("mcpvm mcp approve victim");
    expect(starts("victim")).toEqual([pid]);
  });

  it("from another process (`mcpvm mcp revoke` while a session runs) stops the server at the session's next call, without reconnecting", async () => {
    const pid = valueOf(await host.run(`return require("host:mcp-remote").pid({}).pid;`)) as number;
    const revoke = await cli(home, ["mcp", "revoke", "remote"]);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain("revoked remote");
    const error = errorOf(await host.run(`return require("host:mcp-remote").pid({});`));
    expect(error).toMatchObject({ name: "McpApprovalError", errorCode: "MCP_NOT_APPROVED" });
    expect(error.message).toContain('MCP server "remote" was approved when mcpvm started using it, but its approval has been revoked since');
    await waitFor(() => !isAlive(pid), "the revoked server to stop");
    expect(starts("remote")).toEqual([pid]);
  });
});

describe("a tool definition that changes after approval (rug pull)", () => {
  it("during a session (tools/list_changed): the changed tool and a new one are held, the rest keep working, accepting releases them", async () => {
    const service = await host.requireMcp();
    const refreshed = new Promise<void>((resolve) => {
      const stop = service.clients.subscribe((event) => {
        if (event.type === "tools" && event.server === "shifty" && event.reason === "list_changed") {
          stop();
          resolve();
        }
      });
    });
    // The first call pins the listing as approved; the fixture then changes echo and adds added_tool.
    expect(valueOf(await host.run(`return require("host:mcp-shifty").echo({ text: "before" });`))).toBe("before");
    await refreshed;

    const result = await host.run(`
      const shifty = require("host:mcp-shifty");
      const out = {};
      try { shifty.echo({ text: "after" }); } catch (error) { out.echo = { name: error.name, code: error.code, message: error.message }; }
      try { await tools.shifty.added_tool({}); } catch (error) { out.added_tool = { name: error.name, code: error.code, message: error.message }; }
      out.other = shifty.echo_json({ value: 1 });
      return out;
    `);
    const value = valueOf(result) as Record<string, { name: string; code: string; message: string }> & { other: unknown };
    expect(value.echo).toMatchObject({ name: "McpToolHeldError", code: "MCP_TOOL_HELD" });
    expect(value.echo?.message).toContain("shifty.echo changed since it was approved (description)");
    expect(value.added_tool).toMatchObject({ name: "McpToolHeldError", code: "MCP_TOOL_HELD" });
    expect(value.added_tool?.message).toContain("shifty.added_tool is new since the server was approved");
    expect(value.other).toEqual({ echo: 1 });
    // Held tools stay out of what the model sees: the catalog and the generated types.
    const catalog = await service.catalog("shifty");
    expect(catalog.tools.map((t) => t.jsName)).not.toContain("echo");
    expect(await catalog.declarations()).not.toContain("added_tool");

    expect(await service.acceptTools("shifty", catalog.held)).toEqual({ accepted: ["echo", "added_tool"], blocked: [], neverExposed: [], changedSinceReview: [], notListed: [] });
    const released = await host.run(`const s = require("host:mcp-shifty"); return [s.echo({ text: "accepted" }), s.added_tool({})];`);
    expect(valueOf(released)).toEqual(["accepted", "added_tool"]);
    expect(starts("shifty")).toHaveLength(1);
  });

  it("on the next start: held for guest code, shown with its diff by `mcp info`, accepted by `mcp approve --tools --yes`", async () => {
    // First start: the listing is pinned.
    expect(valueOf(await host.run(`return require("host:mcp-rug").echo({ text: "v1" });`))).toBe("v1");
    await host.close();
    host = await home.open();

    const info = await cli(home, ["mcp", "info", "rug"]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain("Held tools (1) — not visible to guest code or the model");
    expect(info.stdout).toContain("rug.echo changed since it was approved (description)");
    expect(info.stdout).toMatch(/description:\n\s+- "Echo the text back\."\n\s+\+ "Echo the text back \(changed on restart\)\."/);

    const held = errorOf(await host.run(`return require("host:mcp-rug").echo({ text: "v2" });`));
    expect(held).toMatchObject({ name: "McpToolHeldError", errorCode: "MCP_TOOL_HELD" });
    expect(held.message).toContain("rug.echo changed since it was approved");
    expect(valueOf(await host.run(`return require("host:mcp-rug").echo_json({ value: "unchanged tools still work" });`))).toEqual({ echo: "unchanged tools still work" });

    const unattended = await cli(home, ["mcp", "approve", "rug", "--tools"]);
    expect(unattended.code).toBe(5);
    expect(unattended.stderr).toContain("Held tools stay hidden");

    const approve = await cli(home, ["mcp", "approve", "rug", "--tools", "--yes"]);
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain("accepted echo");

    await host.close();
    host = await home.open();
    expect(valueOf(await host.run(`return require("host:mcp-rug").echo({ text: "v2 accepted" });`))).toBe("v2 accepted");
    const types = await cli(home, ["mcp", "types", "rug"]);
    expect(types.stdout).toContain("Echo the text back (changed on restart).");
    expect(starts("rug").length).toBeGreaterThanOrEqual(5);
  });
});
