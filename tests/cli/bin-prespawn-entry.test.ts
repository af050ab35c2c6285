import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/**
 * bin/mcpvm.js loads dist/cli/prespawn.mjs before the CLI for `mcpvm run` (src/cli/prespawn.ts); the thread it
 * starts is only an optimisation, so a dist whose prespawn entry is missing, fails to load, lacks the function or
 * throws must still run the CLI. A real `node bin/mcpvm.js` in a copy of the package whose dist/cli holds a
 * stand-in main entry (it prints what it was asked) beside each broken prespawn entry.
 */
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcpvm-bin-prespawn-"));
  await mkdir(join(root, "bin"));
  await mkdir(join(root, "dist", "cli"), { recursive: true });
  await copyFile(join(import.meta.dirname, "..", "..", "bin", "mcpvm.js"), join(root, "bin", "mcpvm.js"));
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "mcpvm", version: "0.0.0", type: "module" }));
  await writeFile(join(root, "dist", "cli", "main.mjs"), 'export async function runCli(argv) { process.stdout.write(`ran ${argv.join(" ")}\\n`); return 0; }\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function runBin(): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, "bin", "mcpvm.js"), "run", "-e", "return 1"], { env: { ...process.env, MCPVM_HOME: root } });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe("bin/mcpvm.js with a broken prespawn entry", () => {
  it.each([
    ["missing", undefined],
    ["failing to load", 'throw new Error("broken entry");\n'],
    ["without prespawnForRun (another build's)", "export function prespawnLater() {}\n"],
    ["throwing", 'export function prespawnForRun() { throw new Error("broken prespawn"); }\n'],
  ])("%s: the CLI runs all the same", async (_what, source) => {
    if (source !== undefined) await writeFile(join(root, "dist", "cli", "prespawn.mjs"), source);
    expect(await runBin()).toEqual({ code: 0, stdout: "ran run -e return 1\n" });
  }, 30_000);
});
