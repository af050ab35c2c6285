import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditLog } from "../../src/audit-log/index.js";
import { isMcpvmError } from "../../src/util/errors.js";
import { asRoot, mcpvmAsUser, NOBODY } from "../cli/as-nobody.js";

/**
 * A state file mcpvm cannot read (made 000, a folder in its place) is a set-up problem: the error
 * names the file and the command that fixes it, with exit 3, never `[INTERNAL] EACCES` and exit 1
 * (which means "the guest script failed"). Root ignores file modes, so as root the CLI runs as
 * `nobody` against a home that `nobody` owns.
 */

const mcpvm = mcpvmAsUser;

let parent: string;
let home: string;

/** A home of one state file, owned by whoever the CLI runs as; the file made unreadable. */
function homeWithUnreadable(name: string, text: string): string {
  writeFileSync(join(home, name), text, { mode: 0o600 });
  if (asRoot) {
    chownSync(home, NOBODY, NOBODY);
    chownSync(join(home, name), NOBODY, NOBODY);
  }
  chmodSync(join(home, name), 0o000);
  return join(home, name);
}

beforeEach(() => {
  // The parent is searchable by nobody; the home inside it is nobody's own, mode 0700.
  parent = mkdtempSync(join(tmpdir(), "mcpvm-unreadable-"));
  chmodSync(parent, 0o755);
  home = join(parent, "home");
  mkdirSync(home, { mode: 0o700 });
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

describe("a state file that cannot be read", () => {
  it("toolsets.json at mode 000: STORE_UNREADABLE names it and says chmod 600, exit 3", { timeout: 120_000 }, async () => {
    const file = homeWithUnreadable("toolsets.json", `${JSON.stringify({ version: 1, toolsets: {} })}\n`);
    const out = await mcpvm(home, ["toolset", "list"]);
    expect(out.stderr).toContain(`[STORE_UNREADABLE] ${file} cannot be read by you (permission denied). It holds your saved toolsets`);
    expect(out.stderr).toContain(`chmod 600 ${file}`);
    expect(out.stderr).not.toContain("INTERNAL");
    expect(out.code).toBe(3);
  });

  it("audit-log.jsonl at mode 000: `audit verify` says AUDIT_LOG_UNREADABLE with the fix, exit 3", { timeout: 120_000 }, async () => {
    writeFileSync(join(home, "audit-log.head.json"), `${JSON.stringify({ version: 1, seq: 0, hash: "0".repeat(64) })}\n`, { mode: 0o600 });
    if (asRoot) chownSync(join(home, "audit-log.head.json"), NOBODY, NOBODY);
    const file = homeWithUnreadable("audit-log.jsonl", "");
    const out = await mcpvm(home, ["audit", "verify"]);
    expect(out.stderr).toContain(`[AUDIT_LOG_UNREADABLE] ${file} cannot be read by you (permission denied), so the audit log cannot be checked or added to. Fix it with: chmod 600 ${file}`);
    expect(out.code).toBe(3);
  });
});

describe("a folder where an audit file belongs", () => {
  const log = () => new AuditLog({ file: join(home, "audit-log.jsonl"), headFile: join(home, "audit-log.head.json"), user: "alice", face: "cli" });

  it("in the log's place: the append is refused naming the folder and how to move it away", async () => {
    mkdirSync(join(home, "audit-log.jsonl"));
    const error: unknown = await log()
      .append({ event: "plugin.approve", subject: "fetch", decision: "approved" })
      .catch((caught: unknown) => caught);
    expect(isMcpvmError(error) && error.code).toBe("AUDIT_LOG_INSECURE");
    expect((error as Error).message).toContain(`${join(home, "audit-log.jsonl")} is not a regular file`);
    expect((error as Error).message).toContain(`mv ${join(home, "audit-log.jsonl")} ${join(home, "audit-log.jsonl")}.broken`);
  });

  it("in the head file's place: the append is refused as a folder to move away, not a bare EISDIR", async () => {
    const head = join(home, "audit-log.head.json");
    mkdirSync(head);
    const error: unknown = await log()
      .append({ event: "plugin.approve", subject: "fetch", decision: "approved" })
      .catch((caught: unknown) => caught);
    // Refused as an audit-log failure (the log is cut back to where it was), with the head file's own reason and fix inside.
    expect(isMcpvmError(error) && error.code).toBe("AUDIT_LOG_UNWRITABLE");
    expect((error as Error).message).toContain(`cannot write ${head}: it is a folder, not a file; move it away (mv ${head} ${head}.broken) and try again`);
  });
});
