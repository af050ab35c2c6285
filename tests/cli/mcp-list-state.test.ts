import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, fixtureServer, makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";

/**
 * `mcp list` tells each server's real state from the CLI, not only inside the REPL: the last
 * connect result is recorded in the config home (server-status.json), so a new process shows
 * "failed" with the error and when, tool counts of servers that are not running, held tools,
 * approval, unset variables and disabled servers. `--check` starts each server once (✓/✗).
 */

const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");

interface Summary {
  name: string;
  state: string;
  detail?: string;
  next?: string;
  toolCount?: number;
  heldCount?: number;
  approval: string;
  lastConnect?: { result: string; at: string; error?: { code: string; message: string } };
  missingVariables: string[];
}

let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      good: fixtureServer(join(dir, "good.starts")),
      quitter: fixtureServer(join(dir, "quitter.starts"), "--mode exit-at-start --exit-code 7"),
      rug: fixtureServer(join(dir, "rug.starts"), "--mode rug-pull"),
      pending: fixtureServer(join(dir, "pending.starts")),
      token: fixtureServer(join(dir, "token.starts"), "", { env: { MCPVM_FIXTURE_STARTS: join(dir, "token.starts"), API_TOKEN: "${MCPVM_LIST_TEST_UNSET}" } }),
      off: { ...fixtureServer(join(dir, "off.starts")), enabled: false },
    }),
    approve: ["good", "quitter", "rug", "token", "off"],
  });
  // One process uses the servers: good and rug connect, quitter fails at start.
  const used = await cli(home, ["run", "--json", "-"], `require("host:mcp-good"); require("host:mcp-rug"); try { require("host:mcp-quitter"); } catch (e) { return e.code; }`);
  expect(JSON.parse(used.stdout)).toMatchObject({ ok: true, result: "MCP_CONNECT_FAILED" });
  // A second start of rug lists a changed definition: its tool is held.
  await cli(home, ["run", "--json", "-"], `return Object.keys(require("host:mcp-rug"));`);
});
afterAll(async () => home?.cleanup());

async function listInNewProcess(): Promise<Summary[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [VITE_NODE, CLI_ENTRY, "--", "--json", "mcp", "list"], { cwd: home.dir, env: home.env });
  return (JSON.parse(stdout) as { servers: Summary[] }).servers;
}

describe("mcp list from the CLI", () => {
  it("a new process shows the failed start with its error and time, and tool counts of servers that are not running", { timeout: 120_000 }, async () => {
    const servers = await listInNewProcess();
    const byName = Object.fromEntries(servers.map((s) => [s.name, s]));
    expect(byName.quitter).toMatchObject({ state: "failed", next: "mcpvm mcp info quitter", lastConnect: { result: "failed", error: { code: "MCP_CONNECT_FAILED" } } });
    expect(byName.quitter?.detail).toContain("exited during start-up (exit code 7)");
    expect(Date.now() - Date.parse(byName.quitter?.lastConnect?.at ?? "")).toBeLessThan(10 * 60_000);
    expect(byName.good).toMatchObject({ state: "idle", toolCount: expect.any(Number), lastConnect: { result: "connected" } });
    expect(byName.good?.toolCount).toBeGreaterThan(5);
    expect(byName.rug).toMatchObject({ state: "held", heldCount: 1, next: "mcpvm mcp approve rug --tools" });
    expect(byName.pending).toMatchObject({ state: "needs-approval", approval: "unapproved", next: "mcpvm mcp approve pending" });
    expect(byName.token).toMatchObject({ state: "needs-variable", missingVariables: ["MCPVM_LIST_TEST_UNSET"] });
    expect(byName.off).toMatchObject({ state: "disabled", next: "mcpvm mcp enable off" });
  });

  it("the table says the same, with one line per server that needs something", async () => {
    const out = await cli(home, ["mcp", "list"]);
    expect(out.code).toBe(0);
    const rows = Object.fromEntries(
      out.stdout
        .split("\n\n")[0]!
        .split("\n")
        .slice(1)
        .map((line) => line.trimEnd().split(/\s{2,}/))
        .map((cells) => [cells[0], cells]),
    );
    expect(rows.quitter?.slice(1, 4)).toEqual(["stdio", "failed", "approved"]);
    expect(rows.good?.[2]).toBe("idle");
    expect(rows.good?.[4]).toMatch(/^\d+$/);
    expect(rows.rug?.[2]).toBe("held");
    expect(rows.pending?.[2]).toBe("needs approval");
    expect(rows.token?.[2]).toBe("needs $MCPVM_LIST_TEST_UNSET");
    expect(rows.off?.[2]).toBe("disabled");
    expect(out.stdout).toMatch(/\n {2}quitter: MCP server quitter exited during start-up \(exit code 7\)\. Its last stderr line: .+ \((just now|\d+ min ago)\) → mcpvm mcp info quitter/);
    expect(out.stdout).toContain("  token: $MCPVM_LIST_TEST_UNSET not set → export MCPVM_LIST_TEST_UNSET=…");
  });

  it("a corrupt server-status.json never stops anything: one warning, the states fall back, the next start records again", async () => {
    const file = join(home.dir, "server-status.json");
    const saved = await readFile(file, "utf8");
    try {
      writeFileSync(file, "{ broken", { mode: 0o600 });
      const out = await cli(home, ["--json", "mcp", "list"]);
      expect(out.code).toBe(0);
      expect(out.stderr.split("ignoring").length - 1).toBe(1);
      const servers = (JSON.parse(out.stdout) as { servers: Summary[] }).servers;
      expect(servers.find((s) => s.name === "quitter")?.state).toBe("idle");
      const run = await cli(home, ["run", "--json", "-"], `return Object.keys(require("host:mcp-good")).length > 0;`);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, result: true });
      const status = JSON.parse(await readFile(file, "utf8")) as { servers: Record<string, { result: string }> };
      expect(status.servers.good?.result).toBe("connected");
    } finally {
      writeFileSync(file, saved, { mode: 0o600 });
    }
  });

  it("--check starts every approved server once: ✓ or ✗ per server, exit 6 when one fails", async () => {
    const out = await cli(home, ["mcp", "list", "--check"]);
    expect(out.code).toBe(6);
    expect(out.stderr).toMatch(/✓ good: connected, \d+ tools \(\d+ ms\)/);
    expect(out.stderr).toMatch(/✗ quitter: failed \(\d+ ms\) MCP server quitter exited during start-up \(exit code 7\)/);
    expect(out.stderr).not.toContain("pending:");
    const json = JSON.parse((await cli(home, ["--json", "mcp", "list", "--check"])).stdout) as { checks: { name: string; ok: boolean }[] };
    expect(json.checks.map((c) => [c.name, c.ok])).toEqual(
      expect.arrayContaining([
        ["good", true],
        ["quitter", false],
      ]),
    );
  });
});
