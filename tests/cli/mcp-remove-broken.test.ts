import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpApprovalStore } from "../../src/mcp/approval/index.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * `mcpvm mcp remove <name>` is how a person drops a broken mcpServers entry without an editor: it
 * must work while that entry (or another) does not validate, change nothing but that key, and the
 * MCP_CONFIG_INVALID message for a bad entry names it as one way out. Real homes, the real CLI.
 */

const homes: E2eHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

type Config = { mcpServers: Record<string, unknown> } & Record<string, unknown>;

async function brokenHome(bad: Record<string, unknown>): Promise<{ h: E2eHome; file: string; before: Config }> {
  const h = await makeHome({ servers: { ok: fixtureServer("/dev/null"), other: fixtureServer("/dev/null") } });
  homes.push(h);
  const file = join(h.dir, "config.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Config;
  Object.assign(config.mcpServers, bad);
  config.roots = ["/srv/data"];
  await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return { h, file, before: config };
}

const readConfig = async (file: string): Promise<Config> => JSON.parse(await readFile(file, "utf8")) as Config;

describe("mcp remove on a config.json whose mcpServers do not validate", () => {
  it("the error names `mcpvm mcp remove <name>` for each bad entry; removing it works (exit 0), the rest of the file as it was", async () => {
    const { h, file, before } = await brokenHome({ bad: { command: 5, colour: "red" } });
    const list = await cli(h, ["mcp", "list"]);
    expect(list.code).toBe(3);
    expect(list.stderr).toContain("mcpServers.bad: Unrecognized key");
    expect(list.stderr).toContain("mcpvm mcp remove bad");

    const out = await cli(h, ["mcp", "remove", "bad"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("removed bad");
    const after = await readConfig(file);
    const { bad: _removed, ...rest } = before.mcpServers;
    expect(after).toEqual({ ...before, mcpServers: rest });
    expect((await cli(h, ["mcp", "list"])).code).toBe(0);
  });

  it("with two bad entries, each can be removed in turn; the first removal says what is still wrong", async () => {
    const { h, file } = await brokenHome({ bad: { command: 5 }, "Bad Name": { command: "node" } });
    const first = await cli(h, ["mcp", "remove", "bad"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("still not valid");
    expect(first.stderr).toContain('mcpServers["Bad Name"]');
    expect(first.stderr).toContain("mcpvm mcp remove 'Bad Name'");
    const json = await cli(h, ["--json", "mcp", "remove", "Bad Name"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ removed: "Bad Name", stillInvalid: [] });
    expect(Object.keys((await readConfig(file)).mcpServers)).toEqual(["ok", "other"]);
  });

  it("an approved server is removed with its approval while another entry is broken; a name that is not there is still exit 2", async () => {
    const { h, file } = await brokenHome({ bad: { url: 7 } });
    const approvals = new McpApprovalStore(join(h.dir, "approved-mcp.json"));
    expect(Object.keys(await approvals.list())).toContain("ok");
    const out = await cli(h, ["mcp", "remove", "ok"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("removed ok (and its approval)");
    expect(Object.keys(await approvals.list())).not.toContain("ok");
    expect(Object.keys((await readConfig(file)).mcpServers)).toEqual(["other", "bad"]);
    const audit = await cli(h, ["--json", "audit", "log", "--event", "mcp.revoke"]);
    expect(JSON.parse(audit.stdout)).toMatchObject({ entries: [{ event: "mcp.revoke", subject: "ok", decision: "revoked" }] });

    const missing = await cli(h, ["mcp", "remove", "nothere"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no MCP server "nothere"');
  });
});
