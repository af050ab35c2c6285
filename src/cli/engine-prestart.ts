import type { ConfigPaths } from "../config/paths.js";
import type { CreatedEngine } from "../sandbox/select.js";
import type { EngineChoice } from "../sandbox/types.js";
import { workerModeFromEnv } from "../sandbox/engines/quickjs-defaults.js";
import { traceStartup } from "../util/startup-trace.js";
import { tuneForOneRun } from "./one-run-process.js";
import { startEarlyWorker } from "./quickjs-early.js";

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
   * Settles once the engine's worker thread has been asked to start (or nothing was started): what
   * the CLI waits for before loading the command, so that loading does not delay the thread's start.
   */
  readonly starting: Promise<void>;
}

/**
 * `mcpvm run` keeps the one-run-per-thread mode unless MCPVM_QUICKJS_WORKERS says otherwise: one run
 * needs no thread sharing, and the synchronous build computes faster (a CPU-bound guest 1.7x faster
 * under the CLI's --liftoff-only, docs/ARCHITECTURE.md, "Sandbox engines").
 */
const RUN_WORKER_MODE = workerModeFromEnv() ?? "thread";

/**
 * Starts the sandbox engine `mcpvm run` will use as soon as the command line says `run`, before the
 * command and the host load (docs/ARCHITECTURE.md, "How the CLI is built and loaded"). First its
 * QuickJS worker (src/cli/quickjs-early.ts: this module's static imports are only what that needs),
 * whose thread boots QuickJS on another core while the main thread loads the engine, the command,
 * the plugin system and the MCP service; then the engine, which takes that worker for its run. The
 * choice is the host's own: --engine, else config.json `engine`, else auto. One run needs one
 * worker: the engine keeps none warm beyond the one it starts (warmWorkers 0), so no replacement
 * thread is started while the run ends. Never rejects: `engine` is undefined when config.json
 * cannot be read or is invalid, or the engine cannot start; the host, opening next and creating its
 * engine itself, reports either with its usual error. The host adopts the engine (McpvmHost's
 * `startedEngine`) or disposes it.
 */
export function startRunEngine(paths: ConfigPaths, flag: EngineChoice | undefined, options: PrestartOptions = {}): EarlyEngine {
  if (options.wholeProcess === true) tuneForOneRun();
  const worker = startEarlyWorker(paths.configFile, flag, RUN_WORKER_MODE);
  const engine = (async () => {
    const [{ loadConfigFile }, { createEngine }] = await Promise.all([import("../config/config-file.js"), import("../sandbox/select.js")]);
    // An unreadable or invalid config.json rejects here and is reported by the host, which reads it next.
    const choice = flag ?? (await loadConfigFile(paths.configFile)).engine ?? "auto";
    // `auto` asks whether Hyperlight can boot first: asked now, the probe (cached per process, so
    // createEngine reuses its answer) runs while the worker boots instead of after it.
    const probing = choice === "auto" ? import("../sandbox/engines/hyperlight/probe.js").then(({ probeHyperlight }) => probeHyperlight()) : undefined;
    // The early worker must be idle in the pool before the engine leases it, or its run would start another.
    await Promise.all([worker.ready, probing]);
    traceStartup("prestart: engine modules loaded, early worker ready");
    return createEngine(choice, { quickjs: { warmWorkers: 0, workerMode: RUN_WORKER_MODE } });
  })()
    .catch(() => undefined)
    .finally(() => worker.release());
  return { engine, starting: worker.starting };
}

/** startRunEngine's engine alone. */
export function prestartEngine(paths: ConfigPaths, flag: EngineChoice | undefined, options: PrestartOptions = {}): Promise<CreatedEngine | undefined> {
  return startRunEngine(paths, flag, options).engine;
}
