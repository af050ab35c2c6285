// Bundles the CLI (src/cli/main.ts and the completion helper) with esbuild into dist/cli/, so
// `mcpvm` loads a handful of files instead of ~500 tsc modules (see docs/ARCHITECTURE.md, "How the
// CLI is built and loaded"). Runs after `tsc -p tsconfig.build.json` in `npm run build`.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
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
 * The file lock's costly dependencies replaced in the bundle, where they are evaluated at every start
 * that loads the config code (src/util/file-lock.ts must load proper-lockfile eagerly, see there):
 * graceful-fs, whose EMFILE queue and old-Node polyfills touch none of the calls proper-lockfile makes
 * (mkdir, stat, utimes, rmdir, realpath), becomes node:fs; node:assert, which signal-exit loads for one
 * `assert.equal` on its own argument, a one-line check. Only for those importers; tests run the packages.
 */
const lightLockDependencies = {
  name: "light-lock-dependencies",
  setup(b) {
    const shim = (args, importer) => (importer.test(args.importer) ? { path: args.path, namespace: "mcpvm-light" } : undefined);
    b.onResolve({ filter: /^graceful-fs$/ }, (args) => shim(args, /[\\/]proper-lockfile[\\/]/));
    b.onResolve({ filter: /^assert$/ }, (args) => shim(args, /[\\/]signal-exit[\\/]/));
    b.onLoad({ filter: /.*/, namespace: "mcpvm-light" }, (args) => ({
      loader: "js",
      contents: args.path === "graceful-fs" ? 'module.exports = require("node:fs");' : "module.exports = { equal(actual, expected, message) { if (actual != expected) throw new Error(message); } };",
    }));
  },
};

/**
 * packages "mixed" (the default, what ships): EXTERNAL_PACKAGES stay external, the rest (the MCP client
 * SDK, @babel/parser, …) are bundled. "external" and "bundle" are the two extremes, kept for the bench.
 * @param {{ outdir?: string, packages?: "mixed" | "external" | "bundle", metafile?: boolean }} [options]
 */
export async function buildCli(options = {}) {
  const outdir = options.outdir ?? join(ROOT, "dist", "cli");
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    // prespawn: what bin/mcpvm.js loads before main for `mcpvm run` (src/cli/prespawn.ts).
    entryPoints: { main: join(ROOT, "src/cli/main.ts"), complete: join(ROOT, "src/cli/completion/complete.ts"), prespawn: join(ROOT, "src/cli/prespawn.ts") },
    outdir,
    // .mjs, not .js: Node's loader then knows each file is an ES module from its name, instead of
    // looking up the package.json scope above it for each of the ~60 files a run loads.
    outExtension: { ".js": ".mjs" },
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
    plugins: [lightLockDependencies],
    banner: { js: 'import { createRequire as __mcpvmCreateRequire } from "node:module"; const require = __mcpvmCreateRequire(import.meta.url);' },
  });
  return { outdir, metafile: result.metafile };
}

/**
 * zod as one file for everything under dist/ (docs/ARCHITECTURE.md, "How the CLI is built and loaded"):
 * dist/node_modules/zod, which Node's resolver finds first from dist/cli (the bundle, where zod is
 * external), dist/plugins (the native plugins) and dist/src (the host sources they import), so they
 * share one copy, as they shared node_modules/zod before. The package's ~95 ES modules, ~50 of them
 * locales every entry re-exports, became one; its locales are English alone, the default every
 * message is written in (`z.locales` has only `en`). Packages under node_modules (the gateway's
 * server SDK, the LLM SDKs) keep node_modules/zod; zod 4 keeps its registry and config on globalThis
 * for such a second copy. Tests and vite-node run the sources with node_modules/zod.
 * @param {{ outdir?: string }} [options]
 */
export async function buildSharedZod(options = {}) {
  const outdir = options.outdir ?? join(ROOT, "dist", "node_modules", "zod");
  const zodRoot = dirname(createRequire(join(ROOT, "package.json")).resolve("zod/package.json"));
  const { version } = JSON.parse(await readFile(join(zodRoot, "package.json"), "utf8"));
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await build({
    stdin: { contents: 'export * from "zod";\nexport { default } from "zod";\n', resolveDir: ROOT, sourcefile: "zod-entry.js" },
    outfile: join(outdir, "index.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    plugins: [
      {
        name: "zod-english-only",
        setup(b) {
          b.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";\n', loader: "js", resolveDir: join(zodRoot, "v4", "locales") }));
        },
      },
    ],
  });
  // "zod" and "zod/v4" (the MCP client SDK's import) export the same names: one file serves both.
  const manifest = { name: "zod", version, description: `zod ${version} bundled by mcpvm's build (scripts/build-cli.mjs), English messages only`, type: "module", exports: { ".": "./index.js", "./v4": "./index.js", "./package.json": "./package.json" } };
  await writeFile(join(outdir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return outdir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packages = process.argv.find((a) => a.startsWith("--packages="))?.slice("--packages=".length) ?? "mixed";
  const outdir = process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length);
  const { outdir: written } = await buildCli({ packages, ...(outdir === undefined ? {} : { outdir }) });
  process.stdout.write(`built the CLI into ${written} (packages: ${packages})\n`);
  if (outdir === undefined) process.stdout.write(`built the shared zod into ${await buildSharedZod()}\n`);
}
