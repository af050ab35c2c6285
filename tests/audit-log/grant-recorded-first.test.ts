import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, FIXTURE, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * Every approval is in the audit log. When the log cannot be written (here: a folder in its place;
 * the same holds for permission denied, a full disk, or a SIGKILL between the two writes), the
 * approval must not take effect: the command fails with exit 3 and the approvals file does not
 * have it. Before, the approval was stored first and the failed audit append came after it.
 */

let home: E2eHome;

beforeEach(async () => {
  home = await makeHome({ servers: { fx: { command: process.execPath, args: [FIXTURE] } }, approve: [] });
  // The set-up's own entries (the mcp plugin's approval) move aside; a folder takes the log's place.
  await rename(join(home.dir, "audit-log.jsonl"), join(home.dir, "audit-log.jsonl.old"));
  await mkdir(join(home.dir, "audit-log.jsonl"));
}, 60_000);
afterEach(async () => home.cleanup());

function approvals(file: string): Record<string, unknown> {
  const path = join(home.dir, file);
  if (!existsSync(path)) return {};
  const parsed = JSON.parse(readFileSync(path, "utf8")) as { servers?: Record<string, unknown>; plugins?: Record<string, unknown> };
  return parsed.servers ?? parsed.plugins ?? {};
}

describe("an approval the audit log cannot record", () => {
  it("mcp approve: exit 3 naming the log, and fx is not approved", { timeout: 60_000 }, async () => {
    const out = await cli(home, ["--yes", "mcp", "approve", "fx"]);
    expect(out.stderr).toContain(`[AUDIT_LOG_INSECURE] ${join(home.dir, "audit-log.jsonl")} is not a regular file`);
    expect(out.code).toBe(ExitCode.Config);
    expect(Object.keys(approvals("approved-mcp.json"))).not.toContain("fx");
    const list = await cli(home, ["--json", "mcp", "list"]);
    expect(JSON.parse(list.stdout).servers.find((s: { name: string }) => s.name === "fx").approval).toBe("unapproved");
  });

  it("plugin approve: exit 3, and the plugin is not approved", { timeout: 60_000 }, async () => {
    const out = await cli(home, ["--yes", "plugin", "approve", "fetch"]);
    expect(out.stderr).toContain("[AUDIT_LOG_INSECURE]");
    expect(out.code).toBe(ExitCode.Config);
    expect(Object.keys(approvals("approved-plugins.json"))).not.toContain("fetch");
  });
});
