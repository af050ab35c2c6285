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
 * started afterwards would outlive the host. Not while a later load of the same registration is under way
 * or in use (a reload): its dispose is the same one, and that load's own call ends what the module holds.
 */
export function disposeLate(plugin: string, registration: object | undefined, dispose: (() => unknown) | undefined, warn: ((message: string) => void) | undefined): void {
  if (dispose === undefined) return;
  // Loaded again meanwhile (a reload gets the same registration, the module's default export): its dispose
  // is the registration's, so calling it now would tear down that load, also while it is still being
  // created. That load's own dispose (the host closing or reloading, its refusal, or its own late dispose
  // if it too is given up on) ends what the module holds, this late step's work included.
  if (registration !== undefined && liveLoads.has(registration)) return;
  void (async () => {
    try {
      await dispose();
    } catch (error) {
      warn?.(`plugin ${plugin}: disposing it after its late load failed: ${errorMessage(error)}`);
    }
  })();
}

/** Registrations with a load under way or in use (counted by the plugin manager from its import to its end). */
const liveLoads = new WeakMap<object, number>();

/** A load of `registration` is under way (its import gave it) or in use (the manager keeps it), until loadEnded. */
export function loadInUse(registration: object): void {
  liveLoads.set(registration, (liveLoads.get(registration) ?? 0) + 1);
}

/** A load of `registration` counted by loadInUse failed, was given up on, refused, or is being disposed. */
export function loadEnded(registration: object): void {
  const left = (liveLoads.get(registration) ?? 0) - 1;
  if (left > 0) liveLoads.set(registration, left);
  else liveLoads.delete(registration);
}

/** The registration a late import gave (its default export), if it is an object. */
export function lateRegistration(namespace: unknown): object | undefined {
  const candidate = (namespace as { default?: unknown } | null | undefined)?.default;
  return typeof candidate === "object" && candidate !== null ? candidate : undefined;
}

/** The dispose of what a late import gave, if it is a registration that has one (bound to it, as the plugin's methods expect). */
export function lateRegistrationDispose(namespace: unknown): (() => unknown) | undefined {
  const candidate = (namespace as { default?: unknown } | null | undefined)?.default;
  if (typeof candidate !== "object" || candidate === null) return undefined;
  const dispose = (candidate as { dispose?: unknown }).dispose;
  return typeof dispose === "function" ? () => (dispose as () => unknown).call(candidate) : undefined;
}
