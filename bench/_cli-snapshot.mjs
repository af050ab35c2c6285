// An experiment for bench/cli.mjs (files starting with _ are not benchmarks): the CLI started from a
// Node user-land start-up snapshot (`node --snapshot-blob <blob> --build-snapshot <entry>` once, then
// `node --snapshot-blob <blob> <args>`): the heap after the bundle is evaluated is deserialised instead
// of its modules being read, compiled and evaluated. Measured, not shipped: see bench/RESULTS.md, "CLI".
//
// What Node 20.20 asks of the entry, found while building this:
// - one file that `require`s only built-in modules while the snapshot is built (a user module loaded by
//   createRequire then makes the deserialised process fail an internal assertion in setupUserModules),
//   so everything the main thread loads is bundled: an IIFE (the entry has no `module`), every package
//   the main thread needs inside it, import.meta.url replaced by the bundle's own URL;
// - no dynamic import() in the deserialised code ("A dynamic import callback was not specified"), so
//   the bundle's import()s are esbuild's lazy inits, and native plugins (loaded by import(url)) come in
//   through a function compiled after deserialising with vm's main-context loader (an ExperimentalWarning);
// - no live handle in the heap: proper-lockfile's signal-exit registers signal listeners when loaded;
// - evaluating the run path's lazy modules while the snapshot is built (the point of a snapshot) made
//   the sandbox's worker thread fail at start (`process.cwd` in node:internal/main/worker_thread reads
//   a counter the deserialised main thread never set), so only the bundle's top level is in this blob;
// - a process started from a snapshot runs no --import preload: bench/cli.mjs's CPU probe is inside
//   the blob's main (MCPVM_BENCH_CPU=1);
// - state read when a module loads is frozen at build time (MCPVM_TRACE_STARTUP, for one, is read so).
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFile } from "node:fs/promises";
import { build } from "esbuild";

/** Packages the main thread of `mcpvm run` never loads (required at run time from node_modules if ever needed). */
const RUNTIME_ONLY = ["pino", "pino-pretty", "thread-stream", "@opentelemetry/*", "ai", "@ai-sdk/*", "json-schema-to-typescript", "js-tiktoken", "@modelcontextprotocol/server", "@modelcontextprotocol/node"];

/**
 * Builds `<outdir>/mcpvm-snapshot.cjs`, its blob `<outdir>/mcpvm.blob`, an empty snapshot `<outdir>/empty.blob`
 * (what a snapshot start costs with nothing in it) and `<outdir>/launch.mjs` (what bin/mcpvm.js would have to
 * do: start Node again with the blob, as Node 20 cannot load a snapshot into a running process).
 */
export async function buildSnapshotCli(root, outdir) {
  await mkdir(outdir, { recursive: true });
  const file = join(outdir, "mcpvm-snapshot.cjs");
  const banner = `var __mcpvmImportMetaUrl = ${JSON.stringify(pathToFileURL(file).href)};
var require = ((builtinRequire) => {
  let user;
  const userRequire = () => (user ??= builtinRequire("node:module").createRequire(${JSON.stringify(file)}));
  const isBuiltin = (id) => builtinRequire("node:module").isBuiltin(id);
  return Object.assign((id) => (isBuiltin(id) ? builtinRequire(id) : userRequire()(id)), { resolve: (id, options) => userRequire().resolve(id, options) });
})(require);`;
  const footer = `
const __mcpvmV8 = require("node:v8");
if (__mcpvmV8.startupSnapshot.isBuildingSnapshot()) {
  __mcpvmV8.startupSnapshot.setDeserializeMainFunction(() => {
    process.removeAllListeners("warning");
    if (process.env.MCPVM_BENCH_CPU === "1") process.on("exit", () => { const c = process.cpuUsage(); process.stderr.write(\`\\n@@CPU@@\${(c.user + c.system) / 1000}\\n\`); });
    const vm = require("node:vm");
    globalThis.__mcpvmImport = vm.compileFunction("return import(url)", ["url"], { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    __mcpvm.runCli(process.argv.slice(1), undefined, { wholeProcess: true }).then((code) => { process.exitCode = code; });
  });
}`;
  await build({
    entryPoints: [join(root, "src/cli/main.ts")],
    outfile: file,
    bundle: true,
    format: "iife",
    globalName: "__mcpvm",
    platform: "node",
    target: "node20",
    external: RUNTIME_ONLY,
    mainFields: ["module", "main"],
    supported: { "dynamic-import": false },
    define: { "import.meta.url": "__mcpvmImportMetaUrl" },
    banner: { js: banner },
    footer: { js: footer },
    logLevel: "error",
    plugins: [
      {
        name: "plugin-import-after-deserialising",
        setup(b) {
          b.onLoad({ filter: /plugin-system[\\/]host-loader\.ts$/ }, async (args) => {
            const text = await readFile(args.path, "utf8");
            const patched = text.replace("(url) => import(url)", "(url) => globalThis.__mcpvmImport(url)");
            if (patched === text) throw new Error("host-loader.ts no longer has `(url) => import(url)`; update bench/_cli-snapshot.mjs");
            return { contents: patched, loader: "ts" };
          });
        },
      },
    ],
  });
  const blob = join(outdir, "mcpvm.blob");
  // Node warns that some built-in modules (readline, …) are not verified in snapshots: silenced.
  execFileSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", file], { cwd: outdir, stdio: "ignore" });
  const empty = join(outdir, "empty.cjs");
  await writeFile(
    empty,
    'require("node:v8").startupSnapshot.setDeserializeMainFunction(() => { if (process.env.MCPVM_BENCH_CPU === "1") process.on("exit", () => { const c = process.cpuUsage(); process.stderr.write(`\\n@@CPU@@${(c.user + c.system) / 1000}\\n`); }); });\n',
  );
  const emptyBlob = join(outdir, "empty.blob");
  execFileSync(process.execPath, ["--snapshot-blob", emptyBlob, "--build-snapshot", empty], { cwd: outdir, stdio: "ignore" });
  const launcher = join(outdir, "launch.mjs");
  await writeFile(
    launcher,
    `import { spawnSync } from "node:child_process";
const child = spawnSync(process.execPath, ["--snapshot-blob", ${JSON.stringify(blob)}, ...process.argv.slice(2)], { stdio: "inherit" });
process.exitCode = child.status ?? 1;
`,
  );
  return { blob, emptyBlob, launcher };
}
