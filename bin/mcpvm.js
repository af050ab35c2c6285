#!/usr/bin/env node
// Thin launcher: the CLI lives in src/cli, bundled into dist/cli/ by `npm run build` (scripts/build-cli.mjs):
// a few files to load instead of ~500 compiled modules (docs/ARCHITECTURE.md, "How the CLI is built and loaded").
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as nodeModule from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

if (process.env.MCPVM_TRACE_STARTUP === "1") { process.stderr.write(`[startup] ${performance.now().toFixed(1).padStart(7)} ms  bin\n`); process.on("beforeExit", () => process.stderr.write(`[startup] ${performance.now().toFixed(1).padStart(7)} ms  beforeExit\n`)); process.on("exit", () => process.stderr.write(`[startup] ${performance.now().toFixed(1).padStart(7)} ms  exit\n`)); }
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// A Node older than package.json's "engines" (Debian 12 ships 18) is one mcpvm is neither built nor tested
// for, and npm only warns about engines: said here, before anything else loads. Exit 6: Node is unavailable.
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const [needMajor = 0, needMinor = 0] = (/(\d+)\.(\d+)/.exec(pkg.engines?.node ?? "") ?? []).slice(1).map(Number);
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < needMajor || (major === needMajor && minor < needMinor)) {
  process.stderr.write(`mcpvm needs Node ${needMajor}.${needMinor} or newer; this is Node ${process.versions.node} (${process.execPath}). Install a newer Node (https://nodejs.org, or nvm), then run mcpvm again.\n`);
  process.exit(6);
}
// `mcpvm --version` (also -V, -v, `version`) alone: answered without loading the CLI (0.8 s otherwise).
const args = process.argv.slice(2);
if (args.length === 1 && ["--version", "-V", "-v", "version"].includes(args[0])) {
  process.stdout.write(`${pkg.version}\n`);
  process.exit(0);
}
const entry = join(root, "dist", "cli", "main.mjs");
if (!existsSync(entry)) {
  process.stderr.write("mcpvm: the build is missing (dist/). Run `npm install` or `npm run build` in " + root + "\n");
  process.exit(6);
}
// Node >= 22.1 keeps V8's compiled code of the CLI's modules between runs, so they are not compiled again
// at every start: in a cache folder of this account's alone, never the shared temp folder (bin/compile-cache.js;
// NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such cache.
if (typeof nodeModule.enableCompileCache === "function") (await import("./compile-cache.js")).enablePrivateCompileCache(nodeModule, process.env);
// Shell completion runs on every Tab: load only the completion code, not the whole CLI.
if (process.argv[2] === "__complete") {
  const { runComplete } = await import(pathToFileURL(join(root, "dist", "cli", "complete.mjs")).href);
  process.exitCode = runComplete(process.argv.slice(3), process.env, process.stdout);
} else {
  // `mcpvm run`: its sandbox's worker thread starts now, its Node bootstrap on another core while this
  // thread loads the CLI (src/cli/prespawn.ts); its own small bundle entry, so nothing else waits for it.
  // Only an optimisation: without it the run starts its thread itself.
  // Any failure (the entry missing or from another build, or throwing) is caught: catch, not then's second argument.
  if (args.includes("run")) await import(pathToFileURL(join(root, "dist", "cli", "prespawn.mjs")).href).then(({ prespawnForRun }) => prespawnForRun(args, process.env)).catch(() => undefined);
  const { runCli, watchUnsettledExit } = await import(pathToFileURL(entry).href);
  // A command that never settles is said as an internal error (exit 1), not Node's silent 13 (src/cli/unsettled-exit.ts).
  const settled = watchUnsettledExit?.(process, args) ?? (() => undefined);
  // The whole process: `mcpvm run` may tune it for one run (src/cli/one-run-process.ts).
  process.exitCode = await runCli(process.argv.slice(2), undefined, { wholeProcess: true });
  settled();
}
