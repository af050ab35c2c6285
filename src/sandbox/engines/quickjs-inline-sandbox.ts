import type * as QuickJs from "quickjs-emscripten-core";
import type { InlineInstance, StringFunction } from "./quickjs-inline-adapter.js";
import type { SandboxSources } from "./quickjs-sandbox.js";

/** The guest's native functions (GuestNative) as the run using an inline sandbox implements them. */
export interface InlineHooks {
  /** `native.callSync(module, fn, argsText, listener?)`: a promise suspends the guest until it settles. */
  readonly callSync: StringFunction;
  /** `native.callAsync(…)`: returns a guest promise (handles, through the library). */
  readonly callAsync: QuickJs.VmFunctionImplementation<QuickJs.QuickJSHandle>;
  /** `native.log(level, message)`. */
  readonly log: (level: string, message: string) => void;
  /** `native.manifestTables()`: the run manifest after its first line (the bootstrap was given the first line). */
  readonly manifestTables: () => string;
  /** The runtime's interrupt handler: true stops the guest at its next check; see YieldingInterruptHandler. */
  shouldInterrupt(mayYield: () => boolean): boolean | Promise<boolean>;
}

/**
 * One run's runtime and context on an asyncify instance, built ahead of the run like the worker
 * engine's PreparedSandbox: native functions exist, and the bootstrap is compiled and has installed
 * what every run installs alike (installGuestGlobals' first step), so nothing of any run is in it
 * yet. `callSync` and `log`, the calls a loop makes, take the adapter's fast path.
 */
export interface InlineSandbox {
  readonly runtime: QuickJs.QuickJSRuntime;
  readonly context: QuickJs.QuickJSContext;
  readonly native: QuickJs.QuickJSHandle;
  /** The bootstrap's second step: called with the run's manifest text, it returns the GuestRunner. */
  readonly configure: QuickJs.QuickJSHandle;
  /** GuestNative.compiled once a piece has been compiled ahead (see compileInlinePiece). */
  compiled: QuickJs.QuickJSHandle | undefined;
  hooks: InlineHooks | undefined;
}

/**
 * Builds a sandbox on `instance`; throws if QuickJS cannot (the instance is then unusable). The worker
 * engine starts this from its source text: nothing outside its body but its arguments.
 */
export function prepareInlineSandbox(instance: InlineInstance, sources: SandboxSources): InlineSandbox {
  const NOT_RUNNING = { error: "The sandbox is not running" } as const;
  const runtime = instance.newRuntime();
  let created: QuickJs.QuickJSContext | undefined;
  try {
    const context = runtime.newContext();
    created = context;
    const native = context.newObject();
    const slot: { sandbox?: InlineSandbox } = {};
    const functions: Record<"callSync" | "callAsync" | "log" | "manifestTables" | "source" | "compile", QuickJs.QuickJSHandle> = {
      callSync: instance.newStringFunction(context, "callSync", (args, hasListener) => slot.sandbox?.hooks?.callSync(args, hasListener) ?? NOT_RUNNING, true),
      log: instance.newStringFunction(context, "log", (args) => {
        const hooks = slot.sandbox?.hooks;
        if (hooks === undefined) return NOT_RUNNING;
        hooks.log(args[0] ?? "log", args[1] ?? "");
        return "";
      }),
      manifestTables: instance.newStringFunction(context, "manifestTables", () => slot.sandbox?.hooks?.manifestTables() ?? NOT_RUNNING),
      callAsync: context.newFunction("callAsync", function (this: QuickJs.QuickJSHandle, ...args: QuickJs.QuickJSHandle[]) {
        const hooks = slot.sandbox?.hooks;
        if (hooks === undefined) return { error: context.newError(NOT_RUNNING.error) };
        return hooks.callAsync.apply(this, args);
      }),
      // GuestNative.source: the same text for every run, so it needs no run hooks.
      source: instance.newStringFunction(context, "source", (args) => sources.pieces[args[0] ?? ""] ?? { error: "No such bootstrap piece" }),
      // GuestNative.compile: a piece compiled during a run gets its file name, like one compiled ahead.
      // A host function is on the wasm stack meanwhile, so the guest cannot be suspended inside it.
      compile: context.newFunction("compile", (name) => {
        const piece = context.getString(name);
        const text = sources.pieces[piece];
        if (text === undefined) return { error: context.newError("No such bootstrap piece") };
        const compiled = context.evalCode(`"use strict";(${text})`, `mcpvm-${piece}.js`);
        return compiled.error === undefined ? compiled.value : { error: compiled.error };
      }),
    };
    for (const [name, handle] of Object.entries(functions)) {
      context.setProp(native, name, handle);
      handle.dispose();
    }
    const compiled = context.evalCode(sources.bootstrap, "mcpvm-bootstrap.js");
    if (compiled.error) {
      const detail = context.dump(compiled.error) as unknown;
      compiled.error.dispose();
      throw new Error(`The guest bootstrap did not compile: ${JSON.stringify(detail)}`);
    }
    // Its first step now, with no manifest: what every run installs alike (see installGuestGlobals).
    const installed = context.callFunction(compiled.value, context.undefined, native);
    compiled.value.dispose();
    if (installed.error) {
      const detail = context.dump(installed.error) as unknown;
      installed.error.dispose();
      throw new Error(`The guest bootstrap did not install: ${JSON.stringify(detail)}`);
    }
    slot.sandbox = { runtime, context, native, configure: installed.value, compiled: undefined, hooks: undefined };
    return slot.sandbox;
  } catch (error) {
    created?.dispose();
    runtime.dispose();
    throw error;
  }
}

/** Frees a sandbox after its run; a failure means the instance can no longer be trusted. Self-contained (see above). */
export function releaseInlineSandbox(sandbox: InlineSandbox): void {
  sandbox.hooks = undefined;
  if (sandbox.compiled?.alive === true) sandbox.compiled.dispose();
  if (sandbox.configure.alive) sandbox.configure.dispose();
  if (sandbox.native.alive) sandbox.native.dispose();
  sandbox.context.dispose();
  sandbox.runtime.dispose();
}
