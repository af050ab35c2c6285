import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/**
 * A command whose promise never settles used to end the process with Node's exit code 13 and no word once the event
 * loop ran dry (src/cli/unsettled-exit.ts). A real `node bin/mcpvm.js` in a copy of the package whose dist/cli/main.mjs
 * is a stand-in runCli (never settling, exiting itself, settling with a code) beside the real build's watch.
 */
const repo = join(import.meta.dirname, "..", "..");
const realMain = pathToFileURL(join(repo, "dist", "cli", "main.mjs")).href;
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcpvm-unsettled-"));
  await mkdir(join(root, "bin"));
  await mkdir(join(root, "dist", "cli"), { recursive: true });
  await copyFile(join(repo, "bin", "mcpvm.js"), join(root, "bin", "mcpvm.js"));
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "mcpvm", version: "0.0.0", type: "module" }));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function runWith(runCliBody: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  await writeFile(join(root, "dist", "cli", "main.mjs"), `export { watchUnsettledExit } from ${JSON.stringify(realMain)};\nexport async function runCli() { ${runCliBody} }\n`);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, "bin", "mcpvm.js"), ...args], { env: { ...process.env, MCPVM_HOME: root } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

describe("a command that never settles", () => {
  it("is an internal error with exit 1 that names the command, not a silent exit", async () => {
    const result = await runWith("return new Promise(() => {});", ["mcp", "list"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error \[INTERNAL\] mcpvm stopped before `mcp` finished: .*This is a bug in mcpvm: please report it/m);
    expect(result.stdout).toBe("");
  });

  it("answers in JSON on stdout under --json", async () => {
    const result = await runWith("return new Promise(() => {});", ["mcp", "list", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { code: "INTERNAL" } });
    expect(result.stderr).toBe("");
  });

  it("leaves a command that ends the process itself with its own code (the signal guard's 130)", async () => {
    const result = await runWith("setTimeout(() => process.exit(130), 20); return new Promise(() => {});", ["run", "-e", "1"]);
    expect(result.code).toBe(130);
    expect(result.stderr).not.toContain("INTERNAL");
  });

  it("leaves a command that settles alone, whatever its code and whatever is still pending", async () => {
    expect(await runWith("return 3;", ["mcp", "list"])).toEqual({ code: 3, stdout: "", stderr: "" });
    expect(await runWith("setTimeout(() => {}, 30); return 0;", ["mcp", "list"])).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});
