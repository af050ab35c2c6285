import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { cli, makeHome, openHost, scriptedServer, type TrustHome } from "./helpers.js";

/**
 * Issue 17 item 11: a tool name with CR/LF was exposed, so a confirmation could show a different tool
 * than the one called; and names like `constructor` or `toString` found Object.prototype's members
 * where user or server names index plain objects (tools pins, toolsets).
 */
const homes: TrustHome[] = [];
const hosts: McpvmHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  for (const home of homes.splice(0)) await home.cleanup();
});

async function serverHome(tools: ReadonlyArray<{ name: string; description: string }>): Promise<TrustHome> {
  const home = await makeHome({ servers: (starts, dir) => ({ odd: scriptedServer(starts, join(dir, "odd.json")) }) });
  homes.push(home);
  await writeFile(join(home.dir, "odd.json"), JSON.stringify({ tools }));
  return home;
}

/** Each function of the module called once: the MCP tool name that answered, or the error's name. */
async function callable(home: TrustHome): Promise<string[]> {
  const host = await openHost(home);
  try {
    const result = await host.run(
      `const m = require("host:mcp-odd"); const out = []; for (const js of Object.keys(m).filter((k) => k !== "$batch").sort()) { try { out.push(m[js]({}).tool); } catch (e) { out.push(e.name); } } return out;`,
    );
    if (!result.ok) throw new Error(result.error.message);
    return result.value as string[];
  } finally {
    await host.close();
  }
}

describe("tool names with control characters are held and never exposed", () => {
  it("CR/LF, ESC, BEL and a bidi override in a name: held on the first listing, refused even with --accept-blocked", async () => {
    const names = ["delete_all\r\nread_file", "bell\u0007", "rtl\u202eelif_daer", "esc\u001b[2K"];
    const home = await serverHome([{ name: "read_file", description: "Read a file." }, ...names.map((name) => ({ name, description: "Harmless." }))]);
    const approved = await cli(home, ["--yes", "mcp", "approve", "odd"]);
    expect(approved.code).toBe(5);
    expect(approved.stderr).toContain("delete_all\\r\\nread_file: never exposed: its name holds control or invisible characters");
    for (const raw of ["\r", "\u0007", "\u202e", "\u001b"]) expect(approved.stderr).not.toContain(raw);
    expect(await callable(home)).toEqual(["McpToolHeldError", "McpToolHeldError", "McpToolHeldError", "read_file", "McpToolHeldError"]);

    const forced = await cli(home, ["--yes", "--json", "mcp", "approve", "odd", "--tools", "--accept-blocked", names.join(",")]);
    expect(forced.code).toBe(5);
    const report = JSON.parse(forced.stdout) as { tools: { accepted: string[]; stillHeld: Array<{ tool: string; reason: string }> } };
    expect(report.tools.accepted).toEqual([]);
    expect(report.tools.stillHeld.map((h) => [h.tool, h.reason]).sort()).toEqual(names.map((n) => [n, "unsafe-name"]).sort());
    expect(await callable(home)).toEqual(["McpToolHeldError", "McpToolHeldError", "McpToolHeldError", "read_file", "McpToolHeldError"]);
  });

  it("the service never pins one, whatever the caller passes", async () => {
    const home = await serverHome([{ name: "a\nb", description: "Harmless." }]);
    await cli(home, ["--yes", "mcp", "approve", "odd"]);
    const host = await openHost(home);
    hosts.push(host);
    const service = await host.requireMcp();
    const held = (await service.catalog("odd")).held;
    expect(held.map((h) => h.reason)).toEqual(["unsafe-name"]);
    expect(await service.acceptTools("odd", held, { acceptBlocked: ["a\nb"] })).toMatchObject({ accepted: [], neverExposed: ["a\nb"] });
  });
});

describe("names that are also Object.prototype members", () => {
  it("tools named constructor, __proto__, toString, hasOwnProperty stay trusted across restarts", async () => {
    const names = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "%percent"];
    const home = await serverHome(names.map((name) => ({ name, description: `The ${name} tool.` })));
    expect((await cli(home, ["--yes", "mcp", "approve", "odd"])).code).toBe(0);
    // Each tool by its JavaScript name (renamed where it would clash with JavaScript); the server answers with the MCP name it was called by.
    const script = `const out = []; const m = require("host:mcp-odd"); for (const js of Object.keys(m).filter((k) => k !== "$batch")) { try { out.push((await m[js]({})).tool); } catch (e) { out.push(js + " " + e.name + ": " + e.message); } } return out;`;
    for (let start = 0; start < 2; start++) {
      const host = await openHost(home);
      hosts.push(host);
      const result = await host.run(script);
      expect(result.ok && (result.value as string[]).sort()).toEqual([...names].sort());
      expect((await (await host.requireMcp()).catalog("odd")).held).toEqual([]);
      await host.close();
      hosts.pop();
    }
    const pins = JSON.parse(await readFile(join(home.dir, "mcp-pins.json"), "utf8")) as { servers: { odd: { tools: Record<string, unknown> } } };
    expect(Object.keys(pins.servers.odd.tools).sort()).toEqual(["%%percent", "%__proto__", "%constructor", "hasOwnProperty", "toString", "valueOf"]);
  });

  it("toolsets named constructor, prototype and toString can be built, shown and deleted", async () => {
    const home = await serverHome([{ name: "read_file", description: "Read a file." }]);
    expect((await cli(home, ["toolset", "show", "toString"])).code).toBe(2);
    for (const name of ["constructor", "prototype", "toString"]) {
      const built = await cli(home, ["toolset", "build", name, "odd.read_file"]);
      expect(built.code).toBe(0);
    }
    for (const name of ["constructor", "prototype", "toString"]) {
      const shown = await cli(home, ["--json", "toolset", "show", name]);
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({ toolset: { name, tools: ["odd.read_file"] } });
    }
    const list = await cli(home, ["--json", "toolset", "list"]);
    expect(JSON.stringify(JSON.parse(list.stdout))).toMatch(/"constructor".*"prototype".*"toString"/);
    expect((await cli(home, ["toolset", "delete", "constructor"])).code).toBe(0);
    expect((await cli(home, ["toolset", "show", "constructor"])).code).toBe(2);
  });
});
