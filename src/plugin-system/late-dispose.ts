import { errorMessage } from "../util/errors.js";

/**
 * A plugin given up on at load (its import or createHostFunctions passed the deadline) is not waited
 * for, but its code keeps running: when createHostFunctions finally returns, whatever it started
 * (child processes, timers, connections) is there with nobody to stop it. So once the late step
 * settles, the registration's dispose is called (once: a promise settles once, and nothing disposes
 * it at the deadline), and a failure of it is told through `warn`, never thrown: the load it belonged
 * to has already been reported.
 *
 * Disposing at the deadline instead would run before the late step had started anything, and what it
 * started afterwards would outlive the host.
 */
export function disposeLate(plugin: string, dispose: (() => unknown) | undefined, warn: ((message: string) => void) | undefined): void {
  if (dispose === undefined) return;
  void (async () => {
    try {
      await dispose();
    } catch (error) {
      warn?.(`plugin ${plugin}: disposing it after its late load failed: ${errorMessage(error)}`);
    }
  })();
}

/** The dispose of what a late import gave, if it is a registration that has one (bound to it, as the plugin's methods expect). */
export function lateRegistrationDispose(namespace: unknown): (() => unknown) | undefined {
  const candidate = (namespace as { default?: unknown } | null | undefined)?.default;
  if (typeof candidate !== "object" || candidate === null) return undefined;
  const dispose = (candidate as { dispose?: unknown }).dispose;
  return typeof dispose === "function" ? () => (dispose as () => unknown).call(candidate) : undefined;
}
