import { PluginError } from "./errors.js";
import type { LoadProgress } from "./load-progress.js";
import type { LoadWatchdog } from "./load-watchdog.js";

/**
 * How long a plugin's entry import, or its createHostFunctions, may take before it is given up on.
 * One that never settled used to stall every other plugin, and `mcpvm run` then reported the script's
 * WALL_LIMIT, naming neither the plugin nor the way out. Plugins load side by side (manager.ts), so
 * however many are stuck the wait is about one deadline. Generous: the shipped plugins load in well
 * under a second.
 */
export const PLUGIN_LOAD_TIMEOUT_MS = 10_000;

/** The deadline's own error, told apart from a PluginError the plugin's code threw (which callers wrap). */
export class PluginLoadTimeoutError extends PluginError {}

/** What watches a step besides its deadline timer; all optional. */
export interface LoadWatch {
  /** Stops code that holds the thread past the deadline (user plugins). */
  readonly watchdog?: LoadWatchdog;
  /** Says on a terminal which plugins are being waited for. */
  readonly progress?: LoadProgress;
  /** The folder the plugin's code runs from: tells the watchdog whose code holds the thread. */
  readonly code?: string;
  /** Where a problem that cannot be reported as the load's error is told (a late plugin's dispose that failed). */
  readonly warn?: (message: string) => void;
}

/** How a step given up on ended after all: its value, or what it threw. */
export type LateOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * `work()`, or PLUGIN_LOAD_FAILED naming the plugin and the step once `ms` have passed. The work itself
 * cannot be cancelled (an import has no signal); it is only no longer waited for. `work` is started here,
 * after the timer, so that plugin code which runs synchronously at once (createHostFunctions) is timed too.
 * With a watchdog, code that holds the thread past the deadline is stopped and the process ends (exit 3).
 * `onLate` is told how work given up on ended, if it ever does: what it made may need disposing.
 */
export async function withinLoadDeadline<T>(plugin: string, step: string, ms: number, work: () => Promise<T>, watch: LoadWatch = {}, onLate?: (outcome: LateOutcome<T>) => void): Promise<T> {
  const { watchdog, progress } = watch;
  // No plugin code before the watchdog watches (see LoadWatchdog.ready).
  if (watchdog !== undefined) await watchdog.ready;
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The watchdog stopped this step's synchronous code and the process is ending: load nothing more.
      if (watchdog?.check() === true) return;
      late = true;
      const seconds = ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
      reject(
        new PluginLoadTimeoutError("PLUGIN_LOAD_FAILED", `plugin ${plugin}: ${step} did not finish within ${seconds}; it was given up on and the plugin is not loaded. Fix the plugin, or stop loading it: mcpvm plugin disable ${plugin}`, {
          data: { plugin },
        }),
      );
    }, ms);
  });
  const armed = watchdog?.arm({ plugin, step, ms, ...(watch.code === undefined ? {} : { code: watch.code }) });
  const waiting = progress?.begin(plugin, step);
  let running: Promise<T> | undefined;
  try {
    running = work();
    return await Promise.race([running, deadline]);
  } catch (error) {
    if (late && running !== undefined && onLate !== undefined) {
      running.then(
        (value) => onLate({ ok: true, value }),
        (lateError: unknown) => onLate({ ok: false, error: lateError }),
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
    if (armed !== undefined) watchdog?.disarm(armed);
    if (waiting !== undefined) progress?.end(waiting);
  }
}
