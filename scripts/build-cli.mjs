// Bundles the CLI (src/cli/main.ts and the completion helper) with esbuild into dist/cli/, so
// `mcpvm` loads a handful of files instead of ~500 tsc modules (see docs/ARCHITECTURE.md, "How the
// CLI is built and loaded"). Runs after `tsc -p tsconfig.build.json` in `npm run build`.
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Packages left to Node's resolver instead of bundled. zod: native plugins (dist/plugins) import it
 * too, and one copy serves both. pino and its transports start worker threads from their own files;
 * the QuickJS packages are loaded by path inside the sandbox's worker; the rest are loaded only by
 * the commands that need them (gateway, agent, telemetry, type generation) and are large.
 */
export const EXTERNAL_PACKAGES = [
  "zod",
  "pino",
  "pino-pretty",
  "thread-stream",
  "quickjs-emscripten-core",
  "@jitl/*",
  "@opentelemetry/*",
  "ai",
  "@ai-sdk/*",
  "json-schema-to-typescript",
  "js-tiktoken",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/node",
];

/**
 * packages "mixed" (the default, what ships): EXTERNAL_PACKAGES stay external, the rest (the MCP client
 * SDK, @babel/parser, …) are bundled. "external" and "bundle" are the two extremes, kept for the bench.
 * @param {{ outdir?: string, packages?: "mixed" | "external" | "bundle", metafile?: boolean }} [options]
 */
export async function buildCli(options = {}) {
  const outdir = options.outdir ?? join(ROOT, "dist", "cli");
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: join(ROOT, "src/cli/main.ts"), complete: join(ROOT, "src/cli/completion/complete.ts") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    ...((options.packages ?? "mixed") === "external" ? { packages: "external" } : {}),
    ...((options.packages ?? "mixed") === "mixed" ? { external: EXTERNAL_PACKAGES } : {}),
    // ESM builds first: some packages (jsonc-parser) ship a UMD "main" whose dynamic requires esbuild cannot follow.
    mainFields: ["module", "main"],
    sourcemap: "linked",
    metafile: options.metafile === true,
    logLevel: "warning",
    banner: { js: 'import { createRequire as __mcpvmCreateRequire } from "node:module"; const require = __mcpvmCreateRequire(import.meta.url);' },
  });
  return { outdir, metafile: result.metafile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packages = process.argv.find((a) => a.startsWith("--packages="))?.slice("--packages=".length) ?? "mixed";
  const outdir = process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length);
  const { outdir: written } = await buildCli({ packages, ...(outdir === undefined ? {} : { outdir }) });
  process.stdout.write(`built the CLI into ${written} (packages: ${packages})\n`);
}
