import type { GuestBase64, GuestBuiltins, GuestDiagnostics, GuestFormatter, GuestManifest, GuestModules, GuestNative, GuestPieceFactories, GuestPieceName, GuestResultEncoder, GuestRunner, ResultFlags } from "./native.js";

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
export function installGuestGlobals(
  native: GuestNative,
  manifestText: string,
  createResultEncoder: (bytesKey: string, base64: () => GuestBase64) => GuestResultEncoder,
): GuestRunner {
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
    ErrorClass: Error,
    TypeErrorClass: TypeError,
    PromiseClass: Promise,
  };
  const { freeze, hasOwn, apply, then, stringify } = builtins;
  const manifest = builtins.parse(manifestText) as GuestManifest;
  const global = globalThis as unknown as Record<string, unknown>;
  const defineProperty = Object.defineProperty;
  const evaluate = eval;
  const hostErrors = new WeakSet<object>();

  /** A piece's factory: the one the engine compiled ahead, else compiled now from its source. */
  function piece<K extends GuestPieceName>(name: K): GuestPieceFactories[K] {
    const ahead = native.compiled?.[name] as GuestPieceFactories[K] | undefined;
    // Strict like this code; evaluated in the global scope, so it sees none of these locals.
    return typeof ahead === "function" ? ahead : (evaluate(`"use strict";(${native.source(name)})`) as GuestPieceFactories[K]);
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
  const result = createResultEncoder(manifest.bytesKey, base64);
  const modules = once((): GuestModules => piece("modules")(native, manifest, { require, hostErrors, format, diagnostics, base64, wrapBytes: result.wrapBytes, builtins }));

  const names = builtins.keysOf(manifest.modules);
  const available = names.length === 0 ? "none" : names.map((name) => `host:${name}`).join(", ");

  function moduleError(name: string, code: string, message: string): Error {
    const error = new Error(message);
    error.name = name;
    (error as Error & { code?: string }).code = code;
    return error;
  }

  function require(specifier: unknown): object {
    if (typeof specifier !== "string") throw new TypeError('require() expects a module name such as "host:fs-read"');
    if (specifier.slice(0, 5) !== "host:") {
      throw moduleError(
        "ModuleNotFoundError",
        "MODULE_NOT_FOUND",
        `Cannot find module "${specifier}": the sandbox has no Node.js modules, files or network; only host modules exist (available: ${available})`,
      );
    }
    const name = specifier.slice(5);
    if (!hasOwn.call(manifest.modules, name)) {
      // Unavailable (a disabled server, a plugin that is off) or unknown: the diagnostics say which.
      const failure = diagnostics().requireFailure(manifest, name);
      throw moduleError(failure.name, failure.code, failure.message);
    }
    return modules().load(name);
  }

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
  defineProperty(global, "__mcpvm", {
    value: freeze({
      callAsync: (module: string, fn: string, given: readonly unknown[] = []): Promise<unknown> => modules().callAsync(module, fn, given),
      modules: freeze(names.slice()),
      // For the trusted prelude's own messages (e.g. the tools global's "did you mean").
      didYouMean: (input: string, candidates: readonly string[]) => diagnostics().didYouMean(String(input), candidates),
    }),
    writable: false,
    configurable: false,
  });

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
   */
  function describeResult(value: unknown): string {
    const flags: ResultFlags = { changed: false };
    let text: string | undefined;
    try {
      text = result.encodeResult(value, flags);
    } catch (error) {
      return unusualResult(value, error);
    }
    if (text === undefined) return value === undefined ? '{"ok":true}' : unusualResult(value, undefined);
    if (flags.changed) return unusualResult(value, undefined);
    if (text.length > manifest.maxResultChars) return stringify({ ok: false, kind: "too_large", chars: text.length });
    return `{"ok":true,"value":${text}}`;
  }

  function unusualResult(value: unknown, failure: unknown): string {
    try {
      return diagnostics().describeResult(value, failure, manifest.maxResultChars, result.wrapBytes);
    } catch (error) {
      // Even that failed (exhaustion, a hostile getter): report the failure as it is.
      const reason = failure ?? error;
      const name = reason instanceof Error ? String(reason.name) : "Error";
      return stringify({ ok: false, kind: "unserializable", error: { name, message: reason instanceof Error ? String(reason.message) : String(reason) } });
    }
  }

  return {
    start(main) {
      return apply(then, main(), [describeResult, describeThrown]) as Promise<string>;
    },
  };
}
