import { PluginError } from "./errors.js";
import type { LoadClock } from "./load-clock.js";
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
  /** Takes the time other plugins' code held the thread off this step's clock (plugins loading side by side). */
  readonly clock?: LoadClock;
}

const inSeconds = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`);

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
  const { watchdog, progress, clock } = watch;
  // No plugin code before the watchdog watches (see LoadWatchdog.ready).
  if (watchdog !== undefined) await watchdog.ready;
  const self = {};
  const began = clock?.now() ?? 0;
  /** This step's own time so far: the time since it began, less what other code held the thread. */
  // Holds nobody claimed are given back up to the deadline's length (LoadClock.heldByOthers): a step ends within twice its deadline plus what other steps' code claimably held.
  const ownTime = (): number => (clock === undefined ? ms : clock.now() - began - clock.heldByOthers(self, began, ms));
  const disable = `Fix the plugin, or stop loading it: mcpvm plugin disable ${plugin}`;
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const deadline = new Promise<never>((_, reject) => {
    const expire = (): void => {
      // The watchdog stopped this step's synchronous code and the process is ending: load nothing more.
      if (watchdog?.check() === true) return;
      // Another plugin held the thread meanwhile: this step gets that time back, and its continuation a
      // turn of the event loop (the I/O it waited for is served after this timer phase).
      const left = ms - ownTime();
      if (left >= 1) {
        timer = setTimeout(expire, Math.ceil(left));
        return;
      }
      late = true;
      const others = clock === undefined ? 0 : clock.heldByOthers(self, began, ms);
      const note = others >= 250 ? ` (not counting ${inSeconds(others)} in which other code held mcpvm's thread)` : "";
      reject(new PluginLoadTimeoutError("PLUGIN_LOAD_FAILED", `plugin ${plugin}: ${step} did not finish within ${inSeconds(ms)}${note}; it was given up on and the plugin is not loaded. ${disable}`, { data: { plugin } }));
    };
    timer = setTimeout(expire, ms);
  });
  const armed = watchdog?.arm({ plugin, step, ms, ...(watch.code === undefined ? {} : { code: watch.code }) });
  const waiting = progress?.begin(plugin, step);
  let running: Promise<T> | undefined;
  try {
    running = work();
    const value = await Promise.race([running, deadline]);
    if (clock !== undefined) {
      // Settled right after holding the thread past its deadline: its deadline timer never had a turn, and
      // the plugins it held back must not be the ones named.
      clock.settled(self, began);
      const held = clock.heldBy(self);
      if (held > 0 && ownTime() > ms) {
        late = true;
        throw new PluginLoadTimeoutError("PLUGIN_LOAD_FAILED", `plugin ${plugin}: ${step} kept mcpvm's thread busy for ${inSeconds(held)} (a synchronous loop or long computation), past its ${inSeconds(ms)} deadline; it was given up on and the plugin is not loaded. ${disable}`, { data: { plugin } });
      }
    }
    return value;
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
