import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, makeHome, type E2eHome } from "../e2e/helpers.js";

/** config.json `logs.audit` reaches the log every face writes, and `mcpvm audit` reads and checks across the segments. */
let home: E2eHome;
const ENTRIES = 700;

beforeAll(async () => {
  home = await makeHome({ servers: {}, mcpPlugin: false });
  const configFile = join(home.dir, "config.json");
  const config = JSON.parse(await readFile(configFile, "utf8"));
  await writeFile(configFile, JSON.stringify({ ...config, logs: { audit: { maxFileBytes: 65_536, keep: 2 } } }));
  const host = await home.open();
  try {
    for (let i = 1; i <= ENTRIES; i++) await host.audit.record({ event: "mcp.call.confirm", subject: `server-${i}`, decision: "allowed", details: { tool: "send", i } });
  } finally {
    await host.close();
  }
}, 120_000);
afterAll(async () => home.cleanup());

describe("mcpvm audit over a rotated log", () => {
  it("keeps the configured segments; verify checks them all and says from where", async () => {
    expect((await readdir(home.dir)).filter((n) => /^audit-log.*\.jsonl$/.test(n)).sort()).toEqual(["audit-log.1.jsonl", "audit-log.2.jsonl", "audit-log.jsonl"]);
    const ok = await cli(home, ["audit", "verify"]);
    expect(ok.code, ok.stderr).toBe(ExitCode.Ok);
    expect(ok.stdout).toMatch(/^intact: \d+ entries in 3 files \(audit-log\.2\.jsonl … audit-log\.jsonl\), head #700 [0-9a-f]{64}$/m);
    expect(ok.stdout).toMatch(/^Checked from entry #\d+ \(audit-log\.2\.jsonl line 1\): the entries before it are no longer kept \(rotated out\), so they could not be checked\.$/m);
    const json = JSON.parse((await cli(home, ["--json", "audit", "verify"])).stdout);
    expect(json).toMatchObject({ ok: true, head: { seq: ENTRIES }, from: { file: join(home.dir, "audit-log.2.jsonl"), line: 1 } });
  });

  it("log shows the newest entries and how to page back; --before pages", async () => {
    const shown = await cli(home, ["audit", "log", "--limit", "5"]);
    expect(shown.code, shown.stderr).toBe(ExitCode.Ok);
    expect(shown.stdout.trim().split("\n").slice(1).map((row) => Number(row.trim().split(/\s+/)[0]))).toEqual([696, 697, 698, 699, 700]);
    expect(shown.stderr).toContain("Showing the newest 5 entries. Older ones: mcpvm audit log --before 696");
    const page = JSON.parse((await cli(home, ["--json", "audit", "log", "--limit", "3", "--before", "696"])).stdout);
    expect(page.entries.map((e: { seq: number }) => e.seq)).toEqual([693, 694, 695]);
    expect(page.olderBefore).toBe(693);
    expect(page.files).toHaveLength(3);
    const bad = await cli(home, ["audit", "log", "--limit", "ten"]);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain('--limit takes a whole number of 1 or more (e.g. --limit 100), not "ten"');
    expect((await cli(home, ["audit", "verify", "--limit", "3"])).code).toBe(ExitCode.Usage);
  });

  it("a config with a keep of 0 is refused, naming the setting", async () => {
    const configFile = join(home.dir, "config.json");
    const good = await readFile(configFile, "utf8");
    await writeFile(configFile, JSON.stringify({ ...JSON.parse(good), logs: { audit: { keep: 0 } } }));
    try {
      const refused = await cli(home, ["plugin", "list"]);
      expect(refused.code).toBe(ExitCode.Config);
      expect(refused.stderr).toContain("logs.audit.keep");
    } finally {
      await writeFile(configFile, good);
    }
  });

  it("an entry edited in a rotated segment is named by file and line (exit 3)", async () => {
    const segment = join(home.dir, "audit-log.1.jsonl");
    const lines = (await readFile(segment, "utf8")).split("\n");
    lines[2] = (lines[2] as string).replace('"allowed"', '"declined"');
    await writeFile(segment, lines.join("\n"));
    const broken = await cli(home, ["audit", "verify"]);
    expect(broken.code).toBe(ExitCode.Config);
    expect(broken.stderr).toContain("AUDIT_LOG_BROKEN");
    expect(broken.stderr).toMatch(/audit-log\.1\.jsonl: entry \d+ \(audit-log\.1\.jsonl line 3\) does not match its own hash/);
  });
});
