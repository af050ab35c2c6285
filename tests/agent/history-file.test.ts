import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendHistory, loadHistory } from "../../src/agent/repl/history.js";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";

/**
 * The REPL history is opened without following a symlink (as the audit log is), kept 0600, and a
 * problem with it is said once per kind, never on every line, and never stops the REPL.
 */

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "mcpvm-history-file-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("the REPL history file", () => {
  it("a symlink in its place is refused for reading and writing; the file it points at is untouched", async () => {
    const target = join(home, "elsewhere.txt");
    writeFileSync(target, "secret line\n", { mode: 0o600 });
    const file = join(home, "history");
    symlinkSync(target, file);
    await expect(loadHistory(file)).rejects.toThrow(`the REPL history ${file} is a symbolic link (mcpvm never follows links for its state files), so earlier lines are not offered`);
    await expect(appendHistory(file, "typed")).rejects.toThrow(`Fix it with: rm ${file}`);
    expect(readFileSync(target, "utf8")).toBe("secret line\n");
  });

  it("a history file others can read is made 0600 again on the next line", async () => {
    const file = join(home, "history");
    writeFileSync(file, "old\n");
    chmodSync(file, 0o644);
    await appendHistory(file, "new");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadHistory(file)).toEqual(["old", "new"]);
  });

  it("a folder in its place: the REPL says so once for reading and once for saving, runs every line, exits 0", async () => {
    mkdirSync(join(home, "history"));
    const io = captureIo({ MCPVM_HOME: home, HOME: home, PATH: process.env.PATH }, "/run return 40 + 2\n/run return 1 + 1\n/exit\n");
    const code = await runCli(["repl"], io);
    const err = io.stderrText();
    expect(io.stdoutText()).toContain("42");
    expect(io.stdoutText()).toContain("2");
    expect(err.split("is a folder, not a file, so earlier lines are not offered").length - 1).toBe(1);
    expect(err.split("is a folder, not a file, so lines typed now are not saved").length - 1).toBe(1);
    expect(err).toContain(`mv ${join(home, "history")} ${join(home, "history")}.broken`);
    expect(code).toBe(0);
  });
});
