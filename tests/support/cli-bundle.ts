import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { build } from "esbuild";

/**
 * The CLI from the TypeScript sources bundled into one ESM file, for tests that start many `mcpvm`
 * processes at once: vite-node transforms every source file in every process (about 4 s of CPU
 * each), a bundle loads in about a quarter of that. npm packages stay external, resolved from the
 * repository's node_modules (the bundle is written below it). esbuild comes with vitest (via vite).
 *
 * Limitation: native plugins are loaded from their .ts sources, which plain node cannot import, so
 * commands that load plugin code (`mcp approve`, `run`, …) need vite-node instead.
 */

const ROOT = resolve(import.meta.dirname, "../..");

export interface CliBundle {
  /** Run as `node <file>`; argv as a JSON array in MCPVM_TEST_ARGV (see tests/trust/fixtures/cli-argv-entry.ts). */
  readonly file: string;
  remove(): Promise<void>;
}

export async function bundleCli(): Promise<CliBundle> {
  const dir = join(ROOT, "node_modules", ".cache", "mcpvm-test-cli");
  await mkdir(dir, { recursive: true });
  const file = join(dir, `cli-${process.pid}-${randomBytes(4).toString("hex")}.mjs`);
  await build({
    entryPoints: [join(ROOT, "tests", "trust", "fixtures", "cli-argv-entry.ts")],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return { file, remove: () => rm(file, { force: true }) };
}
