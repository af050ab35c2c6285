import type { GuestBuiltins, GuestDiagnostics, GuestFormatter, GuestManifest, GuestModules, GuestNative, GuestPieceFactories, GuestPieceName, GuestRunManifest, GuestRunner } from "./native.js";

/**
 * Installs the guest globals (`console`, `require`, `__mcpvm`) and returns the runner that turns the
 * script's outcome into an envelope. RUNS INSIDE THE SANDBOX (embedded via
 * Function.prototype.toString), so it references nothing outside its own body.
 *
 * This is the part of the bootstrap compiled into every sandbox, so it holds only what every run
 * uses; the rest are pieces (GuestPieceName) compiled on first use from `native.source`, unless the
 * engine compiled them ahead (`native.compiled`). The built-ins the pieces use are captured here,
 * before any user code runs.
 *
 * Security does not rest on this code: user code runs in the same context and can tamper with
 * prototypes. The host validates every envelope and meters every log line; what this code owes is
 * a faithful, clear contract for well-behaved scripts.
 */
export function installGuestGlobals(native: GuestNative, manifestText: string): GuestRunner;
/**
 * In two steps: what every run installs alike (the globals, their closures) now, and the returned
 * `configure` takes the run's manifest and gives its runner. An engine that builds its sandboxes
 * ahead calls the first step then (most of the bootstrap's own time: ~0.1 ms of QuickJS work, and a
 * sandbox image keeps it), so a run pays only for parsing its manifest. Nothing of a run is in the
 * first step: a sandbox still serves one run.
 */
export function installGuestGlobals(native: GuestNative): (manifestText: string) => GuestRunner;
export function installGuestGlobals(native: GuestNative, manifestText?: string): GuestRunner | ((manifestText: string) => GuestRunner) {
  // Also when the source is compiled on its own, as the sandbox does (see bootstrap-source.ts).
  "use strict";
  const builtins: GuestBuiltins = {
    freeze: Object.freeze,
    create: Object.create,
    keysOf: Object.keys,
    hasOwn: Object.prototype.hasOwnProperty,
    isArray: Array.isArray,
    apply: Reflect.apply,
    then: Promise.prototype.then,
    stringify: JSON.stringify,
    parse: JSON.parse,
    Proxy,
    Bytes: Uint8Array,
    MapClass: Map,
    SetClass: Set,
    ErrorClass: Error,
    TypeErrorClass: TypeError,
    PromiseClass: Promise,
  };
  const { freeze, apply, then, stringify, Bytes, MapClass, SetClass, ErrorClass } = builtins;
  // Set by `configure` before any guest code runs; every use below is inside a function called later.
  let manifest = undefined as unknown as GuestRunManifest;
  // The manifest's tables (GuestManifest, the tools table: see GuestRunManifest), asked of the engine on first use when not given.
  let tablesText: string | undefined;
  const split = String.prototype.split;
  const tables = once(() => apply(split, tablesText ?? (native.manifestTables as () => string)(), ["\n"]) as string[]);
  const global = globalThis as unknown as Record<string, unknown>;
  const defineProperty = Object.defineProperty;
  const evaluate = eval;
  const hostErrors = new WeakSet<object>();

  /** A piece's factory: the one the engine compiled ahead, else compiled now from its source. */
  function piece<K extends GuestPieceName>(name: K): GuestPieceFactories[K] {
    const ahead = native.compiled?.[name] as GuestPieceFactories[K] | undefined;
    if (typeof ahead === "function") return ahead;
    if (typeof native.compile === "function") return native.compile(name);
    // Strict like this code; evaluated in the global scope, so it sees none of these locals.
    return evaluate(`"use strict";(${native.source(name)})`) as GuestPieceFactories[K];
  }
  /** Made on first use and kept; a failure (e.g. a limit reached while compiling) is retried by the next use. */
  function once<T>(make: () => T): () => T {
    let made: { value: T } | undefined;
    return () => (made ??= { value: make() }).value;
  }
  const base64 = once(() => piece("base64")());
  const formatter = once((): GuestFormatter => piece("format")());
  const format: GuestFormatter = (args) => formatter()(args);
  const diagnostics = once((): GuestDiagnostics => piece("diagnostics")());
  const wrapBytes = (bytes: Uint8Array): unknown => ({ [manifest.bytesKey]: base64().encode(bytes) });
  const modules = once((): GuestModules => piece("modules")(native, builtins.parse(tables()[0] as string) as GuestManifest, { hostErrors, format, diagnostics, base64, wrapBytes, builtins }));
  const callAsync = (module: string, fn: string, given: readonly unknown[] = []): Promise<unknown> => modules().callAsync(module, fn, given);
  const didYouMean = (input: string, candidates: readonly string[]): string => diagnostics().didYouMean(String(input), candidates);

  // A method is named by its key: the CLI's bundler renames every binding called `require` (to
  // require2), which guests would see in `require.name` and their stack frames.
  const { require } = {
    require(specifier: unknown): object {
      return modules().require(specifier);
    },
  };

  const consoleObject: Record<string, (...args: unknown[]) => void> = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    consoleObject[level] = {
      [level](...args: unknown[]): void {
        native.log(level, format(args));
      },
    }[level] as (...args: unknown[]) => void;
  }

  defineProperty(global, "console", { value: freeze(consoleObject), writable: true, configurable: true });
  defineProperty(global, "require", { value: require, writable: true, configurable: true });

  function describeThrown(thrown: unknown): string {
    try {
      if (thrown instanceof Error) {
        const code = (thrown as Error & { code?: unknown }).code;
        return stringify({
          ok: false,
          kind: "thrown",
          error: {
            name: String(thrown.name),
            message: String(thrown.message),
            stack: typeof thrown.stack === "string" ? thrown.stack : undefined,
            code: typeof code === "string" ? code : undefined,
            fromHost: hostErrors.has(thrown),
          },
        });
      }
      // A thrown non-Error carries no stack, so there is no line to show; the diagnostics say how to get one.
      const shown = typeof thrown === "string" ? stringify(thrown) : format([thrown]);
      let message = `Uncaught ${shown}`;
      try {
        message = diagnostics().thrownValue(thrown, shown);
      } catch {
        // The plain form stands.
      }
      return stringify({ ok: false, kind: "thrown", error: { message, fromHost: false } });
    } catch {
      return stringify({ ok: false, kind: "thrown", error: { message: "Uncaught exception", fromHost: false } });
    }
  }

  /**
   * Plain data takes the short path, compiled into every run; a result JSON cannot carry as it is
   * (a Map, a function, a BigInt, a cycle, …) goes to the diagnostics, which convert and explain.
   * The replacer flags what JSON would lose without a word: a Map, Set or Error becomes `{}`, a
   * function or Symbol disappears.
   */
  function describeResult(value: unknown): string {
    let changed = false;
    let text: string | undefined;
    try {
      text = stringify(value, (_key, item: unknown) => {
        if (typeof item === "object" && item !== null) {
          if (item instanceof Bytes) return wrapBytes(item);
          if (item instanceof MapClass || item instanceof SetClass || item instanceof ErrorClass) changed = true;
        } else if (typeof item === "function" || typeof item === "symbol") {
          changed = true;
        }
        return item;
      });
    } catch (error) {
      return unusualResult(value, error);
    }
    if (text === undefined) return value === undefined ? '{"ok":true}' : unusualResult(value, undefined);
    if (changed) return unusualResult(value, undefined);
    if (text.length > manifest.maxResultChars) return stringify({ ok: false, kind: "too_large", chars: text.length });
    return `{"ok":true,"value":${text}}`;
  }

  function unusualResult(value: unknown, failure: unknown): string {
    try {
      return diagnostics().describeResult(value, failure, manifest.maxResultChars, wrapBytes);
    } catch (error) {
      // Even that failed (exhaustion, a hostile getter): report the failure as it is.
      const reason = failure ?? error;
      const name = reason instanceof Error ? String(reason.name) : "Error";
      return stringify({ ok: false, kind: "unserializable", error: { name, message: reason instanceof Error ? String(reason.message) : String(reason) } });
    }
  }

  const runner: GuestRunner = {
    start(main) {
      return apply(then, main(), [describeResult, describeThrown]) as Promise<string>;
    },
  };

  function configure(text: string): GuestRunner {
    const first = text.indexOf("\n");
    manifest = builtins.parse(first === -1 ? text : text.slice(0, first)) as GuestRunManifest;
    if (first !== -1) tablesText = text.slice(first + 1);
    defineProperty(global, "__mcpvm", {
      value: freeze({
        callAsync,
        modules: freeze(manifest.names),
        didYouMean,
      }),
      writable: false,
      configurable: false,
    });
    if (manifest.tools) {
      defineProperty(global, "tools", { value: piece("tools")(() => tables()[1] as string, { callAsync, didYouMean, builtins }), enumerable: false, writable: false, configurable: false });
    }
    return runner;
  }

  return manifestText === undefined ? configure : configure(manifestText);
}
