import { readFile, stat } from "node:fs/promises";
import { loadQuickJsAssets } from "../sandbox/engines/quickjs-assets.js";
import { defaultWorkerOptions } from "../sandbox/engines/quickjs-defaults.js";
import { leaseSharedPool } from "../sandbox/engines/quickjs-shared-pool.js";
import type { EngineChoice } from "../sandbox/types.js";
import { STATE_FILE_LIMITS } from "../util/state-file-limits.js";

export interface EarlyWorker {
  /** Settles once the worker thread has been asked to start (or nothing was started). */
  readonly starting: Promise<void>;
  /** Settles once that worker is ready and idle in the shared pool (or its start failed). */
  readonly ready: Promise<void>;
  /** Gives up this hold on the shared pool (once the engine holds its own, or when none is made). */
  release(): void;
}

/**
 * Starts one QuickJS worker into the process's shared pool (the pool a default QuickJS engine uses)
 * before the engine itself can be created: this module loads only the worker's own code (the
 * QuickJS assets, the pool), not the engine's parser, schemas or the Hyperlight probe, so the thread
 * starts a few ms after the command line is read. The engine created next takes this idle worker
 * for its first run. Skipped when --engine or config.json asks for Hyperlight or for the in-thread
 * engine (quickjs-inline), or the run's engine is in shared mode, none of which uses this worker (config.json is read here without
 * validation: the host validates it, and a wrong guess costs only an idle worker, which does not keep
 * the process alive). Never rejects.
 */
export function startEarlyWorker(configFile: string, flag: EngineChoice | undefined, mode: "shared" | "thread"): EarlyWorker {
  let release: (() => void) | undefined;
  let released = false;
  const started = (async () => {
    const choice = flag ?? (await configuredEngine(configFile));
    // A shared-mode engine starts its own thread (its placement, not this pool).
    if (choice === "hyperlight" || choice === "quickjs-inline" || mode === "shared") return undefined;
    const assets = await loadQuickJsAssets();
    if (released) return undefined;
    const lease = leaseSharedPool(assets, defaultWorkerOptions(), { warmThreads: 0, idleMs: 30_000 });
    release = () => lease.release();
    // Wrapped, so that `started` settles when the thread is asked to start, not when it is ready.
    return { warming: lease.pool.warm(1) };
  })().catch(() => undefined);
  return {
    starting: started.then(() => undefined),
    ready: started.then((early) => early?.warming.catch(() => undefined)),
    release: () => {
      released = true;
      release?.();
      release = undefined;
    },
  };
}

/** config.json's `engine` if it says one (no validation: the host does that); undefined otherwise. */
async function configuredEngine(configFile: string): Promise<unknown> {
  try {
    // Over the cap the host refuses the file (CONFIG_TOO_LARGE); this peek does not parse it first.
    if ((await stat(configFile)).size > STATE_FILE_LIMITS.config) return undefined;
    const parsed: unknown = JSON.parse(await readFile(configFile, "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as { engine?: unknown }).engine : undefined;
  } catch {
    return undefined;
  }
}
