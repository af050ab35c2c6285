import type { QuickJsAssets } from "./quickjs-assets.js";
import { ThreadPool } from "./quickjs-pool.js";
import { newSpinBudget, type SpinBudget } from "./quickjs-protocol.js";
import { QuickJsThread } from "./quickjs-thread.js";

/** What makes two engines' workers interchangeable: workers built with the same values. */
export interface SharedPoolKey {
  /** Native stack of each worker thread (QuickJsEngineOptions.workerStackMb). */
  readonly stackSizeMb: number;
  /** Hard cap of each worker's wasm memory. */
  readonly maxWasmMemoryBytes: number;
  /** Most workers busy-waiting for a reply at once; the budget is shared by the pool's workers. */
  readonly spinningWorkers: number;
  /** Sandboxes restored from an image (QuickJsEngineOptions.sandboxSnapshots). */
  readonly snapshots: boolean;
}

export interface SharedPoolDemand {
  /** Idle workers this engine wants kept warm; the pool keeps the largest wish of its engines. */
  readonly warmThreads: number;
  /** How long idle workers beyond the warm set live; also how long the pool outlives its last engine. */
  readonly idleMs: number;
}

/** One engine's use of a shared pool; `release` once, when the engine is disposed. */
export interface SharedPoolLease {
  readonly pool: ThreadPool;
  readonly spin: SpinBudget;
  release(): void;
}

interface Entry {
  readonly key: string;
  readonly options: SharedPoolKey;
  readonly owner: Map<string, Entry>;
  readonly pool: ThreadPool;
  readonly spin: SpinBudget;
  readonly demands: Set<SharedPoolDemand>;
  linger: NodeJS.Timeout | undefined;
}

// Per assets object (one per process unless loading failed and was retried), then per key.
const registry = new WeakMap<QuickJsAssets, Map<string, Entry>>();
const live = new Set<Entry>();
let spawnedThreads = 0;

/**
 * Leases the process-wide pool of QuickJS workers for `key`, creating it on first use. Workers are
 * shared by every engine with the same key: a new engine's first run takes a warm worker instead of
 * starting a thread (a thread start is tens of ms, a fresh runtime in a running worker ~1-2 ms).
 * Isolation does not depend on the worker: every run gets a fresh QuickJS runtime and context, its
 * own host modules and a process-unique run id, and a worker that was killed or poisoned is retired
 * for every engine. After the last lease is released the pool keeps its idle workers (which do not
 * keep the process alive) for `idleMs`, so an engine created right after another is disposed is warm.
 */
export function leaseSharedPool(assets: QuickJsAssets, key: SharedPoolKey, demand: SharedPoolDemand): SharedPoolLease {
  let byKey = registry.get(assets);
  if (byKey === undefined) {
    byKey = new Map();
    registry.set(assets, byKey);
  }
  const keyText = `${key.stackSizeMb}/${key.maxWasmMemoryBytes}/${key.spinningWorkers}/${key.snapshots}`;
  let entry = byKey.get(keyText);
  if (entry === undefined) {
    const spin = newSpinBudget(key.spinningWorkers);
    const threadOptions = { stackSizeMb: key.stackSizeMb, spin, maxWasmMemoryBytes: key.maxWasmMemoryBytes, snapshots: key.snapshots };
    entry = {
      key: keyText,
      options: { ...key },
      owner: byKey,
      spin,
      demands: new Set(),
      linger: undefined,
      pool: new ThreadPool({
        // Each engine caps its own runs (RunGate); the pool starts what they ask for.
        maxThreads: Number.POSITIVE_INFINITY,
        warmThreads: demand.warmThreads,
        idleMs: demand.idleMs,
        spawn: (signal, background) => {
          spawnedThreads++;
          return QuickJsThread.spawn(assets, { ...threadOptions, background }, signal);
        },
      }),
    };
    byKey.set(keyText, entry);
    live.add(entry);
  }
  const held = entry;
  clearTimeout(held.linger);
  held.linger = undefined;
  held.demands.add(demand);
  reconfigure(held);
  let released = false;
  return {
    pool: held.pool,
    spin: held.spin,
    release: () => {
      if (released) return;
      released = true;
      held.demands.delete(demand);
      if (held.demands.size > 0) {
        reconfigure(held);
        return;
      }
      // Kept warm a while for the next engine; the timer does not keep the process alive.
      held.linger = setTimeout(() => {
        if (held.demands.size > 0) return;
        held.owner.delete(held.key);
        live.delete(held);
        void held.pool.dispose();
      }, demand.idleMs);
      held.linger.unref();
    },
  };
}

function reconfigure(entry: Entry): void {
  let warm = 0;
  let idleMs = 0;
  for (const demand of entry.demands) {
    warm = Math.max(warm, demand.warmThreads);
    idleMs = Math.max(idleMs, demand.idleMs);
  }
  entry.pool.configure(warm, idleMs);
}

export interface SharedWorkersSnapshot {
  readonly pools: number;
  readonly idle: number;
  readonly busy: number;
  readonly starting: number;
  /** Workers the process has started so far, ended ones included. */
  readonly spawned: number;
  /** Each live worker: its thread id and how many runs it has served. */
  /** `readiness`: how far each thread's next sandbox is (CONTROL_LAYOUT.ready; 0 while building or running). */
  /** `imaged`: the thread restores its sandboxes from an image (quickjs-snapshot.ts). */
  readonly threads: readonly { readonly threadId: number; readonly runs: number; readonly readiness: number; readonly imaged: boolean }[];
}

/** What the shared pools hold now (diagnostics and tests); `only` picks the pools whose options match it. */
export function sharedQuickJsWorkers(only: Partial<SharedPoolKey> = {}): SharedWorkersSnapshot {
  let idle = 0;
  let busy = 0;
  let starting = 0;
  const threads: { threadId: number; runs: number; readiness: number; imaged: boolean }[] = [];
  const matching = [...live].filter((entry) => Object.entries(only).every(([name, value]) => entry.options[name as keyof SharedPoolKey] === value));
  for (const entry of matching) {
    const counts = entry.pool.counts;
    idle += counts.idle;
    busy += counts.busy;
    starting += counts.starting;
    for (const thread of entry.pool.threads()) threads.push({ threadId: thread.worker.threadId, runs: thread.runs, readiness: thread.readiness, imaged: thread.imaged });
  }
  return { pools: matching.length, idle, busy, starting, spawned: spawnedThreads, threads };
}

/** Ends every shared worker now (e.g. before a process exits on purpose); runs in progress fail. */
export async function disposeSharedQuickJsWorkers(): Promise<void> {
  const entries = [...live];
  live.clear();
  for (const entry of entries) {
    clearTimeout(entry.linger);
    entry.owner.delete(entry.key);
  }
  await Promise.all(entries.map((entry) => entry.pool.dispose()));
}
