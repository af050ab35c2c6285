import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A command that reads a corrupt state file fails with it (exit 3, the file and the fix), as
 * `mcpvm doctor` does: `mcp list` printed a table with an "approval error" row and exited 0, and
 * `mcpvm serve` started a gateway that offered no tools with a log line as the only sign.
 */

let home: E2eHome;
let approvals: string;

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ good: fixtureServer(join(dir, "good.starts")) }) });
  approvals = readFileSync(join(home.dir, "approved-mcp.json"), "utf8");
});
afterAll(async () => home?.cleanup());
beforeEach(() => {
  writeFileSync(join(home.dir, "approved-mcp.json"), approvals, { mode: 0o600 });
  writeFileSync(join(home.dir, "toolsets.json"), `${JSON.stringify({ version: 1, toolsets: {} })}\n`, { mode: 0o600 });
});

describe("a corrupt state file fails the command that reads it", () => {
  it("mcp list: approved-mcp.json that is not JSON is STORE_CORRUPT, exit 3, no table", async () => {
    writeFileSync(join(home.dir, "approved-mcp.json"), "garbage\n", { mode: 0o600 });
    const out = await cli(home, ["mcp", "list"]);
    expect(out.stderr).toContain(`[STORE_CORRUPT] ${join(home.dir, "approved-mcp.json")} is not valid JSON (line 1, column 1: unexpected character)`);
    expect(out.stdout).not.toContain("TRANSPORT");
    expect(out.code).toBe(3);
  });

  it("mcp list: mcp-pins.json of the wrong shape is STORE_CORRUPT naming the field, exit 3", async () => {
    writeFileSync(join(home.dir, "mcp-pins.json"), `${JSON.stringify({ version: 1, servers: { good: { instructionsHash: "x", tools: {} } } })}\n`, { mode: 0o600 });
    try {
      const out = await cli(home, ["mcp", "list", "--json"]);
      expect(JSON.parse(out.stdout)).toMatchObject({ ok: false, error: { code: "STORE_CORRUPT" } });
      expect(out.stdout).toContain("servers.good.instructionsHash");
      expect(out.code).toBe(3);
    } finally {
      writeFileSync(join(home.dir, "mcp-pins.json"), `${JSON.stringify({ version: 1, servers: {} })}\n`, { mode: 0o600 });
    }
  });

  it("serve: a corrupt approvals file stops the start (exit 3) and no server is started", async () => {
    writeFileSync(join(home.dir, "approved-mcp.json"), '{"version": 1, "servers": {"good": 7}}\n', { mode: 0o600 });
    const out = await cli(home, ["serve"]);
    expect(out.stderr).toContain(`[STORE_CORRUPT] ${join(home.dir, "approved-mcp.json")} is not valid`);
    expect(out.stderr).toContain("servers.good");
    expect(out.code).toBe(3);
    expect(existsSync(home.startsFile("good"))).toBe(false);
  });

  it("serve: a toolsets.json with a planted __proto__ key stops the start (exit 3) with the key's path", async () => {
    writeFileSync(join(home.dir, "toolsets.json"), '{"version": 1, "toolsets": {"__proto__": {}}}\n', { mode: 0o600 });
    const out = await cli(home, ["serve"]);
    expect(out.stderr).toContain(`[STORE_CORRUPT] ${join(home.dir, "toolsets.json")} has a key mcpvm refuses: toolsets.__proto__ (line 1, column 29)`);
    expect(out.code).toBe(3);
  });

  it("audit log: a line that cannot be read is exit 3 (the readable entries are still shown)", async () => {
    const file = join(home.dir, "audit-log.jsonl");
    const intact = readFileSync(file, "utf8");
    expect((await cli(home, ["audit", "log"])).code).toBe(0);
    writeFileSync(file, `${intact}{"seq": broken\n`, { mode: 0o600 });
    try {
      const out = await cli(home, ["audit", "log"]);
      expect(out.stdout).toContain("mcp.approve");
      expect(out.stderr).toContain(`1 line of ${file} could not be read; run \`mcpvm audit verify\``);
      expect(out.code).toBe(3);
      const json = await cli(home, ["audit", "log", "--json"]);
      expect(JSON.parse(json.stdout)).toMatchObject({ unreadableLines: 1 });
      expect(json.code).toBe(3);
    } finally {
      writeFileSync(file, intact, { mode: 0o600 });
    }
  });

  it("with the files intact both commands still succeed", async () => {
    expect((await cli(home, ["mcp", "list"])).code).toBe(0);
    expect((await cli(home, ["serve"])).code).toBe(0);
  });
});
