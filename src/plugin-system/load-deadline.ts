import { PluginError } from "./errors.js";
import type { LoadWatchdog } from "./load-watchdog.js";

/**
 * How long a plugin's entry import, or its createHostFunctions, may take before it is given up on.
 * Plugins load one after another, so one whose top-level await or createHostFunctions never settles
 * stalled every other plugin, and `mcpvm run` then reported the script's WALL_LIMIT, naming neither
 * the plugin nor the way out. Generous: the shipped plugins load in well under a second.
 */
export const PLUGIN_LOAD_TIMEOUT_MS = 10_000;

/** The deadline's own error, told apart from a PluginError the plugin's code threw (which callers wrap). */
export class PluginLoadTimeoutError extends PluginError {}

/**
 * `work()`, or PLUGIN_LOAD_FAILED naming the plugin and the step once `ms` have passed. The work itself
 * cannot be cancelled (an import has no signal); it is only no longer waited for. `work` is started here,
 * after the timer, so that plugin code which runs synchronously at once (createHostFunctions) is timed too.
 * With a `watchdog`, code that holds the thread past the deadline is stopped and the process ends (exit 3).
 */
export async function withinLoadDeadline<T>(plugin: string, step: string, ms: number, work: () => Promise<T>, watchdog?: LoadWatchdog): Promise<T> {
  // No plugin code before the watchdog watches (see LoadWatchdog.ready).
  if (watchdog !== undefined) await watchdog.ready;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The watchdog stopped this step's synchronous code and the process is ending: load nothing more.
      if (watchdog?.check() === true) return;
      const seconds = ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
      reject(
        new PluginLoadTimeoutError("PLUGIN_LOAD_FAILED", `plugin ${plugin}: ${step} did not finish within ${seconds}; it was given up on and the plugin is not loaded. Fix the plugin, or stop loading it: mcpvm plugin disable ${plugin}`, {
          data: { plugin },
        }),
      );
    }, ms);
  });
  watchdog?.arm(plugin, step, ms);
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
    watchdog?.disarm();
  }
}
