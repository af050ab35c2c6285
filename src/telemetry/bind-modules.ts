import { isLazyHostModule, type HostFunction, type HostModule, type HostModules, type LazyHostModule } from "../sandbox/types.js";

/** Wraps a function so it runs in a context captured earlier (OpenTelemetry's context.bind). */
export type Binder = <F extends (...args: never[]) => unknown>(fn: F) => F;

function bindModule(module: HostModule, bind: Binder): HostModule {
  const out: Record<string, HostFunction> = {};
  for (const [name, fn] of Object.entries(module)) out[name] = bind(fn);
  return out;
}

/**
 * The same modules with every host function (and every lazy module's load) bound to the run's
 * trace context. Host calls reach the main thread from the sandbox's worker through a
 * MessagePort, whose handler runs in the port's async context, not the run's; binding here puts
 * the upstream tools/call spans under the run's span whatever the engine.
 */
export function bindHostModules(modules: HostModules, bind: Binder): HostModules {
  const out: Record<string, HostModule | LazyHostModule> = {};
  for (const [name, entry] of Object.entries(modules)) {
    if (!isLazyHostModule(entry)) {
      out[name] = bindModule(entry, bind);
      continue;
    }
    if (entry.unavailable !== undefined) {
      out[name] = entry;
      continue;
    }
    const load = bind((context: Parameters<LazyHostModule["load"]>[0]) => entry.load(context).then((module) => bindModule(module, bind)));
    out[name] = { ...entry, lazy: true, load };
  }
  return out;
}
