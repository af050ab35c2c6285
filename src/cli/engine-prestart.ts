import type { ConfigPaths } from "../config/paths.js";
import { loadConfigFile } from "../config/config-file.js";
import { loadQuickJsAssets } from "../sandbox/engines/quickjs-assets.js";
import { createEngine, type CreatedEngine } from "../sandbox/select.js";
import type { EngineChoice } from "../sandbox/types.js";
import { traceStartup } from "../util/startup-trace.js";
import { tuneForOneRun } from "./one-run-process.js";

export interface PrestartOptions {
  /**
   * The CLI is the whole process (bin/mcpvm.js), which ends after this run: process-wide settings
   * that suit one short run are applied first (src/cli/one-run-process.ts). Off for runCli inside a
   * longer-lived process (tests).
   */
  readonly wholeProcess?: boolean;
}

export interface EarlyEngine {
  /** The engine once its worker is ready; undefined when it cannot start (the host then reports why). */
  readonly engine: Promise<CreatedEngine | undefined>;
  /**
   * Settles once the engine's worker thread has been asked to start (or the start failed): what the
   * CLI waits for before loading the command, so that loading does not delay the thread's start.
   */
  readonly starting: Promise<void>;
}

/**
 * Starts the sandbox engine `mcpvm run` will use as soon as the command line says `run`, before the
 * command and the host load: the engine's worker thread boots QuickJS on another core while the
 * main thread loads and evaluates the command, the plugin system, the MCP service and the parser,
 * instead of after them (docs/ARCHITECTURE.md, "How the CLI is built and loaded"). The QuickJS wasm
 * module compiles while config.json is read. The choice is the host's own: --engine, else
 * config.json `engine`, else auto. One run needs one worker: the engine keeps none warm beyond the
 * one it starts (warmWorkers 0), so no replacement thread is started while the run ends. Never
 * rejects: `engine` is undefined when config.json cannot be read or is invalid, or the engine cannot
 * start; the host, opening next and creating its engine itself, reports either with its usual error.
 * The host adopts the engine (McpvmHost's `startedEngine`) or disposes it.
 */
export function startRunEngine(paths: ConfigPaths, flag: EngineChoice | undefined, options: PrestartOptions = {}): EarlyEngine {
  if (options.wholeProcess === true) tuneForOneRun();
  // QuickJS is the engine unless Hyperlight is asked for by name (auto falls back to it here): its
  // wasm compiles off this thread meanwhile. A failure is the engine's to report, when created.
  const assets = flag === "hyperlight" ? Promise.resolve() : loadQuickJsAssets().then(() => undefined, () => undefined);
  const chosen = (async () => {
    // An unreadable or invalid config.json rejects here and is reported by the host, which reads it next.
    const choice = flag ?? (await loadConfigFile(paths.configFile)).engine ?? "auto";
    await assets;
    traceStartup("prestart: config read, wasm compiled");
    return choice;
  })();
  const engine = chosen.then((choice) => createEngine(choice, { quickjs: { warmWorkers: 0 } })).catch(() => undefined);
  // createEngine runs to its worker's start on already-settled promises (microtasks), so once the
  // choice is known the thread starts before any module loading the caller begins next can run.
  return { engine, starting: chosen.then(() => undefined, () => undefined) };
}

/** startRunEngine's engine alone. */
export function prestartEngine(paths: ConfigPaths, flag: EngineChoice | undefined, options: PrestartOptions = {}): Promise<CreatedEngine | undefined> {
  return startRunEngine(paths, flag, options).engine;
}
