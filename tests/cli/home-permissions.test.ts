import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRoot, mcpvmAsUser } from "./as-nobody.js";

/**
 * A config home the user cannot write: changing it says "cannot write <file>: permission denied;
 * check the permissions of …" with exit 3 (not INTERNAL and a temp-file name), and a run with
 * --log-level debug still works, logging to stderr with one warning. Root ignores file modes, so
 * as root the CLI runs as the user `nobody` against a root-owned home; otherwise the home is
 * made read-only with chmod.
 */

const mcpvm = mcpvmAsUser;

let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "mcpvm-readonly-"));
  writeFileSync(join(home, "config.json"), `${JSON.stringify({ engine: "quickjs" })}\n`);
  writeFileSync(join(home, "script.js"), "return 6 * 7;");
  chmodSync(join(home, "config.json"), 0o644);
  chmodSync(join(home, "script.js"), 0o644);
  // Readable by everyone, writable by its owner only: as root the CLI runs as nobody; else the owner loses write.
  chmodSync(home, asRoot ? 0o755 : 0o555);
});
afterAll(() => {
  chmodSync(home, 0o700);
  rmSync(home, { recursive: true, force: true });
});

describe("a config home that cannot be written", () => {
  it("mcp add: 'cannot write …/config.json: permission denied', exit 3, the file unchanged", { timeout: 180_000 }, async () => {
    const before = readFileSync(join(home, "config.json"), "utf8");
    const out = await mcpvm(home, ["mcp", "add", "memory"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`[CONFIG_HOME_NOT_WRITABLE] cannot write ${join(home, "config.json")}: permission denied; check the permissions of ${home}`);
    expect(out.stderr).not.toContain(".tmp");
    expect(readFileSync(join(home, "config.json"), "utf8")).toBe(before);
  });

  it("--log-level debug run still runs: the result on stdout, one warning about the log file", { timeout: 180_000 }, async () => {
    const out = await mcpvm(home, ["--log-level", "debug", "run", join(home, "script.js")]);
    expect(out.stderr.split("cannot write the log file").length - 1).toBe(1);
    expect(out.stdout).toBe("42\n");
    expect(out.code).toBe(0);
  });

  it("doctor on a home that does not exist under it: a warning that it cannot be created, not 'No problems found'", { timeout: 180_000 }, async () => {
    const missing = join(home, "not", "made");
    const out = await mcpvm(missing, ["--json", "doctor"]);
    const report = JSON.parse(out.stdout) as { problems: { severity: string; subject: string; message: string; next: string }[] };
    const found = report.problems.find((p) => p.subject === "config home");
    expect(found?.severity).toBe("warning");
    expect(found?.message).toContain(`${missing} does not exist and cannot be created (${home} is not a folder you can write)`);
    expect(found?.next).toContain("set MCPVM_HOME to a folder you own");
    expect(out.code).toBe(0);
  });
});
