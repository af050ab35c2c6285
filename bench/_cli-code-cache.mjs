// An experiment for bench/cli.mjs (files starting with _ are not benchmarks): the CLI as ONE CommonJS
// file run through vm.Script with V8's code cache (cachedData), the only code cache Node 20 offers to
// user code (ES modules get none before Node 22's module.enableCompileCache). Measured, not shipped:
// see bench/RESULTS.md, "CLI", for what it gained and why it lost.
//
// Two things it has to work around on Node 20: code deserialized from a cache loses its dynamic
// import() callback ("A dynamic import callback was not specified"), so import() of packages becomes
// require() and the plugin loader's import() goes through a function the launcher defines; and
// vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER prints an ExperimentalWarning.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";
import { EXTERNAL_PACKAGES } from "../scripts/build-cli.mjs";

/** Builds `<outdir>/mcpvm.cjs` and `<outdir>/launch.cjs` (run as `node launch.cjs <args>`; the cache sits beside them). */
export async function buildCodeCacheCli(root, outdir) {
  const file = join(outdir, "mcpvm.cjs");
  await build({
    entryPoints: [join(root, "src/cli/main.ts")],
    outfile: file,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: EXTERNAL_PACKAGES,
    mainFields: ["module", "main"],
    supported: { "dynamic-import": false },
    define: { "import.meta.url": "__mcpvmImportMetaUrl" },
    banner: { js: 'var __mcpvmImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "error",
    plugins: [
      {
        name: "plugin-import-through-launcher",
        setup(b) {
          b.onLoad({ filter: /plugin-system[\\/]host-loader\.ts$/ }, async (args) => {
            const text = await readFile(args.path, "utf8");
            const patched = text.replace("(url) => import(url)", "(url) => globalThis.__mcpvmImport(url)");
            if (patched === text) throw new Error("host-loader.ts no longer has `(url) => import(url)`; update bench/_cli-code-cache.mjs");
            return { contents: patched, loader: "ts" };
          });
        },
      },
    ],
  });
  const launcher = join(outdir, "launch.cjs");
  await writeFile(
    launcher,
    `"use strict";
const fs = require("node:fs"), vm = require("node:vm"), path = require("node:path"), Module = require("node:module");
process.removeAllListeners("warning");
globalThis.__mcpvmImport = (url) => import(url);
const file = ${JSON.stringify(file)};
const cacheFile = file + ".v8cache";
let cached;
try { cached = fs.readFileSync(cacheFile); } catch {}
const script = new vm.Script(Module.wrap(fs.readFileSync(file, "utf8")), { filename: file, cachedData: cached, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(path.dirname(file));
script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
mod.exports.runCli(process.argv.slice(2), undefined, { wholeProcess: true }).then((code) => {
  process.exitCode = code;
  // After the run, so the cache also holds the functions compiled lazily while it ran.
  if (cached === undefined || script.cachedDataRejected) fs.writeFileSync(cacheFile, script.createCachedData());
});
`,
  );
  return launcher;
}
