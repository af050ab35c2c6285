import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../e2e/helpers.js";

/**
 * The launcher against a Node older than package.json's "engines": one line saying which Node is
 * needed and which one ran, exit 6, and nothing of the CLI loaded. No old Node is installed here,
 * so a preloaded module makes this Node report an older version (process.versions.node) before the
 * launcher reads it; the real version still runs everything.
 */

const BIN = join(ROOT, "bin", "mcpvm.js");
const engines = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;

function launch(version: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const spoof = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}});`;
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", spoof, BIN, ...args], { env: { PATH: process.env.PATH ?? "", MCPVM_HOME: "/nonexistent-mcpvm-home" } }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr }),
    );
  });
}

describe("the launcher on an old Node", () => {
  it(`Node 18 (Debian 12's): "needs Node ${engines.replace(">=", "")} or newer", exit 6, before the CLI loads`, async () => {
    const out = await launch("18.19.0", ["doctor"]);
    expect(out.stderr).toBe(`mcpvm needs Node ${engines.replace(">=", "")} or newer; this is Node 18.19.0 (${process.execPath}). Install a newer Node (https://nodejs.org, or nvm), then run mcpvm again.\n`);
    expect(out.stdout).toBe("");
    expect(out.code).toBe(6);
  });

  it("the minor version counts (20.9 is refused when 20.10 is needed); the needed one itself runs", async () => {
    expect(engines).toBe(">=20.10");
    expect((await launch("20.9.0", ["--version"])).code).toBe(6);
    const ok = await launch("20.10.0", ["--version"]);
    expect(ok.stdout).toBe(`${(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version}\n`);
    expect(ok.code).toBe(0);
  });
});
