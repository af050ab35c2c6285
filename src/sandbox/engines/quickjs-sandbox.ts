import type * as QuickJs from "quickjs-emscripten-core";

/**
 * The guest's native functions (GuestNative) as the run using a sandbox implements them. A sandbox is
 * built before its run is known, so its native functions call through whatever hooks the run installs.
 */
export interface SandboxHooks {
  readonly callSync: QuickJs.VmFunctionImplementation<QuickJs.QuickJSHandle>;
  readonly callAsync: QuickJs.VmFunctionImplementation<QuickJs.QuickJSHandle>;
  readonly log: QuickJs.VmFunctionImplementation<QuickJs.QuickJSHandle>;
  /** GuestNative.manifestTables: the run manifest after its first line (configure was given the first line). */
  readonly manifestTables: QuickJs.VmFunctionImplementation<QuickJs.QuickJSHandle>;
  /** The runtime's interrupt handler: true stops the guest at its next check. */
  shouldInterrupt(): boolean;
}

/** The guest bootstrap's sources (see guest/bootstrap-source.ts): compiled into every sandbox, and its pieces. */
export interface SandboxSources {
  readonly bootstrap: string;
  /** GuestPieceName -> an expression evaluating to the piece's factory. */
  readonly pieces: Readonly<Record<string, string>>;
}

/** What compiling a piece ahead touches of a sandbox (either engine's). */
export interface SandboxCompiledPieces {
  readonly context: QuickJs.QuickJSContext;
  readonly native: QuickJs.QuickJSHandle;
  compiled: QuickJs.QuickJSHandle | undefined;
}

/**
 * One run's QuickJS runtime and context, built ahead of the run: the native functions exist, the
 * bootstrap is compiled (most of a trivial run's cost) and has installed what every run installs
 * alike (installGuestGlobals' first step), so nothing of any run is in it yet and a run pays only for
 * `configure` with its manifest's first line, as the in-thread engine's sandboxes do. A sandbox serves
 * exactly one run and is then released (or restored from its image).
 */
export interface PreparedSandbox {
  readonly runtime: QuickJs.QuickJSRuntime;
  readonly context: QuickJs.QuickJSContext;
  /** The GuestNative object handed to the bootstrap. */
  readonly native: QuickJs.QuickJSHandle;
  /** The bootstrap's second step: called with the run's manifest text (its first line), it returns the GuestRunner. */
  readonly configure: QuickJs.QuickJSHandle;
  /** GuestNative.compiled once a piece has been compiled ahead (see compileQuickJsPiece). */
  compiled: QuickJs.QuickJSHandle | undefined;
  /** Installed by the run; undefined before it starts and after it ends. */
  hooks: SandboxHooks | undefined;
}

/**
 * Builds a sandbox: a fresh runtime (own heap, job queue and atoms: nothing is shared with other
 * runs) and context, its native functions, and the bootstrap compiled and its first step called
 * (wave 32: in a warm run the whole bootstrap call with the manifest was ~150-300 µs of the worker's
 * ~600, configure alone a fraction of it; a sandbox image keeps the step). RUNS IN THE WORKER THREAD
 * (embedded by its source text, see quickjs-assets.ts): it references nothing outside its body.
 * Throws if QuickJS cannot build it, which means the wasm instance is unusable.
 */
export function prepareQuickJsSandbox(module: QuickJs.QuickJSWASMModule, sources: SandboxSources): PreparedSandbox {
  const runtime = module.newRuntime();
  let created: QuickJs.QuickJSContext | undefined;
  try {
    const context = runtime.newContext();
    created = context;
    const native = context.newObject();
    // The native functions exist before the sandbox object does; they find its hooks through this.
    const slot: { sandbox?: PreparedSandbox } = {};
    const forward = (name: "callSync" | "callAsync" | "log" | "manifestTables"): QuickJs.VmFunctionImplementation<QuickJs.QuickJSHandle> =>
      function (this: QuickJs.QuickJSHandle, ...args: QuickJs.QuickJSHandle[]) {
        const hooks = slot.sandbox?.hooks;
        if (hooks === undefined) return { error: context.newError("The sandbox is not running") };
        return hooks[name].apply(this, args);
      };
    for (const name of ["callSync", "callAsync", "log", "manifestTables"] as const) {
      const handle = context.newFunction(name, forward(name));
      context.setProp(native, name, handle);
      handle.dispose();
    }
    // GuestNative.source: the same text for every run, so it needs no run hooks.
    const source = context.newFunction("source", (name) => {
      const piece = sources.pieces[context.getString(name)];
      return piece === undefined ? { error: context.newError("No such bootstrap piece") } : context.newString(piece);
    });
    context.setProp(native, "source", source);
    source.dispose();
    // GuestNative.compile: a piece compiled during a run gets its file name, like one compiled ahead.
    const compile = context.newFunction("compile", (name) => {
      const piece = context.getString(name);
      const text = sources.pieces[piece];
      if (text === undefined) return { error: context.newError("No such bootstrap piece") };
      const compiled = context.evalCode(`"use strict";(${text})`, `mcpvm-${piece}.js`);
      return compiled.error === undefined ? compiled.value : { error: compiled.error };
    });
    context.setProp(native, "compile", compile);
    compile.dispose();
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

/**
 * Compiles one bootstrap piece into a sandbox built ahead, while the worker has nothing else to do:
 * the factory function (uncalled, so still no guest-visible state) goes into GuestNative.compiled,
 * and the run that needs the piece does not compile it. RUNS IN THE WORKER THREAD (embedded by its
 * source text): it references nothing outside its body. Throws if QuickJS cannot compile it; the
 * caller then drops that sandbox and the next run builds its own. The in-thread engine uses it too.
 */
export function compileQuickJsPiece(sandbox: SandboxCompiledPieces, sources: SandboxSources, name: string): void {
  const { context } = sandbox;
  const source = sources.pieces[name];
  if (source === undefined) return;
  const compiled = context.evalCode(`"use strict";(${source})`, `mcpvm-${name}.js`);
  if (compiled.error) {
    const detail = context.dump(compiled.error) as unknown;
    compiled.error.dispose();
    throw new Error(`The guest bootstrap piece ${name} did not compile: ${JSON.stringify(detail)}`);
  }
  if (sandbox.compiled === undefined) {
    sandbox.compiled = context.newObject();
    context.setProp(sandbox.native, "compiled", sandbox.compiled);
  }
  context.setProp(sandbox.compiled, name, compiled.value);
  compiled.value.dispose();
}

/** Frees a sandbox after its run; a failure means the wasm instance can no longer be trusted. */
export function releaseQuickJsSandbox(sandbox: PreparedSandbox): void {
  sandbox.hooks = undefined;
  if (sandbox.compiled?.alive === true) sandbox.compiled.dispose();
  if (sandbox.configure.alive) sandbox.configure.dispose();
  if (sandbox.native.alive) sandbox.native.dispose();
  sandbox.context.dispose();
  sandbox.runtime.dispose();
}
