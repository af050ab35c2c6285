import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { extractBlocks } from "../docs/extract.js";

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);

/**
 * README.md tells a new user how to get a plain `mcpvm` on PATH (the other docs and every MCP client's
 * config call it so). This runs that block as written, with HOME a temporary folder, then calls
 * `mcpvm` through PATH from another folder: the launcher must find its package through the link.
 */
describe("README: mcpvm on PATH", () => {
  it("the linked launcher runs from any folder (it finds its package through the symlink)", async () => {
    if (!existsSync(join(ROOT, "dist", "cli", "main.mjs"))) throw new Error("the build is missing: run `npm run build` first (npm ci runs it through prepare)");
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    const block = extractBlocks("README.md", readme).find((b) => typeof b.annotation === "object" && b.annotation.options.get("by") === "tests/cli/on-path.test.ts");
    expect(block, "the README block covered by this test").toBeDefined();
    const home = await mkdtemp(join(tmpdir(), "mcpvm-on-path-"));
    try {
      const env = { PATH: process.env.PATH ?? "", HOME: home, MCPVM_HOME: join(home, ".mcpvm") };
      // "from the clone": the block runs in the repository's root, as the README says.
      for (const line of (block?.code ?? "").split("\n").filter((l) => l.trim() !== "")) await run("bash", ["-c", line], { cwd: ROOT, env });
      const onPath = { ...env, PATH: `${join(home, ".local/bin")}:${env.PATH}` };
      const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };
      const { stdout } = await run("bash", ["-c", "mcpvm --version"], { cwd: home, env: onPath });
      expect(stdout).toBe(`${version}\n`);
      // The whole CLI (dist/, built by npm ci's prepare), as the README line promises.
      const doctor = await run("bash", ["-c", "mcpvm doctor"], { cwd: home, env: onPath });
      expect(doctor.stdout).toContain(`home        ${join(home, ".mcpvm")}`);
      expect(doctor.stdout).toContain("No problems found.");
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
