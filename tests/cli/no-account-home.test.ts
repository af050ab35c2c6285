import { spawnSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accountless } from "./accountless.js";
import { rootPaths } from "../../src/mcp/client-manager/local-roots.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "mcpvm.js");
const uid = process.getuid?.() ?? -1;


describe("local roots without a home folder", () => {
  it("offers `~` paths only when there is a home to resolve them in", () => {
    expect(rootPaths(["~", "~/src", "/data", "rel"], "/work", undefined)).toEqual(["/data", "/work/rel"]);
    expect(rootPaths(["~", "~/src"], "/work", "/home/a")).toEqual(["/home/a", "/home/a/src"]);
  });
});

// Running as another account needs root; elsewhere the case cannot be made (say so rather than pass).
describe.skipIf(uid !== 0)("mcpvm for an account with no home folder (a container run as `--user 54321`, HOME unset)", () => {
  const who = accountless();
  const { HOME: _home, MCPVM_HOME: _mcpvmHome, ...inherited } = process.env;
  const asAccountless = (args: string[], env: Record<string, string | undefined>) =>
    spawnSync(process.execPath, [BIN, ...args], { env: { ...inherited, ...env }, uid: who, gid: who, cwd: tmpdir(), encoding: "utf8", timeout: 60_000 });

  it("runs a script and a doctor check in the MCPVM_HOME it is given", () => {
    const parent = mkdtempSync(join(tmpdir(), "mcpvm-nohome-"));
    chmodSync(parent, 0o755);
    const home = join(parent, "home");
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, who, who);
    const ran = asAccountless(["run", "-e", "return 6 * 7"], { MCPVM_HOME: home });
    expect(ran.stderr).toBe("");
    expect(ran.stdout.trim()).toBe("42");
    expect(ran.status).toBe(0);
    const doctor = asAccountless(["doctor"], { MCPVM_HOME: home });
    expect(doctor.stderr).not.toContain("INTERNAL");
    expect(doctor.status).toBe(0);
  });

  it("says to set MCPVM_HOME (exit 3) when neither it nor a home folder exists", () => {
    for (const env of [{}, { MCPVM_HOME: "~/mcpvm" }]) {
      const ran = asAccountless(["run", "-e", "return 1"], env);
      expect(ran.stderr).toContain("[CONFIG_HOME_INVALID]");
      expect(ran.stderr).toContain("no home folder");
      expect(ran.stderr).toContain("Set MCPVM_HOME to an absolute path");
      expect(ran.status).toBe(3);
    }
  });
});
