import { availableParallelism } from "node:os";
import type { SharedPoolKey } from "./quickjs-shared-pool.js";

/**
 * The worker mode MCPVM_QUICKJS_WORKERS asks for ("shared" or "thread"), if it names one. It wins over
 * every default: the engines' ("shared") and `mcpvm run`'s ("thread", src/cli/engine-prestart.ts).
 */
export function workerModeFromEnv(): "shared" | "thread" | undefined {
  const mode = process.env.MCPVM_QUICKJS_WORKERS;
  return mode === "shared" || mode === "thread" ? mode : undefined;
}

/**
 * The worker options of a QuickJS engine created without its own (QuickJsEngineOptions defaults):
 * also the key of the shared pool such an engine uses, so a worker started into that pool before the
 * engine exists (`mcpvm run`, src/cli/quickjs-early.ts) is the one its first run takes.
 */
export function defaultWorkerOptions(): SharedPoolKey {
  return { stackSizeMb: 8, maxWasmMemoryBytes: 512 * 1024 * 1024, spinningWorkers: availableParallelism() - 1, snapshots: true };
}
