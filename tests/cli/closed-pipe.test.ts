import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");

/** `mcpvm <argv>` as a real process whose stdout reader has gone away before it writes (`… | head -0`). */
async function withClosedStdout(argv: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const home = await mkdtemp(join(tmpdir(), "mcpvm-pipe-"));
  try {
    const child = spawn(process.execPath, [VITE_NODE, CLI_ENTRY, "--", ...argv], { env: { PATH: process.env.PATH ?? "", MCPVM_HOME: home, HOME: home }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    return { code, stderr };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

describe("a reader that goes away (mcpvm … | head)", () => {
  it("ends what mcpvm prints, not mcpvm: no Node stack trace, the command's own exit code", async () => {
    const listed = await withClosedStdout(["plugin", "list"]);
    expect(listed.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|node:internal/);
    expect(listed.code).toBe(0);
    const ran = await withClosedStdout(["run", "-e", 'console.error("still logged"); return 6 * 7']);
    expect(ran.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|node:internal/);
    expect(ran.stderr).toContain("still logged");
    expect(ran.code).toBe(0);
  });
});
