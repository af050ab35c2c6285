import type { GuestCodec, GuestDiagnostics, GuestFormatter, GuestListener, GuestManifest, GuestNative, GuestRunner, HostReply, ResultFlags } from "./native.js";

/**
 * Installs the guest globals (`console`, `require`, `__mcpvm`) and returns the runner that turns the
 * script's outcome into an envelope. RUNS INSIDE THE SANDBOX (embedded via
 * Function.prototype.toString), so it references nothing outside its own body.
 *
 * Security does not rest on this code: user code runs in the same context and can tamper with
 * prototypes. The host validates every envelope and meters every log line; what this code owes is
 * a faithful, clear contract for well-behaved scripts.
 */
export function installGuestGlobals(
  native: GuestNative,
  manifestText: string,
  codec: GuestCodec,
  format: GuestFormatter,
  diagnostics: () => GuestDiagnostics,
): GuestRunner {
  const manifest = JSON.parse(manifestText) as GuestManifest;
  const global = globalThis as unknown as Record<string, unknown>;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const stringify = JSON.stringify;
  const hasOwn = Object.prototype.hasOwnProperty;
  const apply = Reflect.apply;
  const then = Promise.prototype.then;
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const GuestProxy = Proxy;
  const hostErrors = new WeakSet<object>();
  // Names tools and tests read from any object ("is it a thenable?", "how does it print?"); asking a
  // module for one of these is not a mistake, so it answers undefined instead of throwing.
  const PROBES = ["then", "toJSON", "constructor", "toString", "valueOf", "toLocaleString", "prototype", "__proto__", "inspect", "asymmetricMatch", "$$typeof", "nodeType"];

  function toGuestError(info: { name: string; message: string; code?: string }): Error {
    const error = new Error(info.message);
    error.name = info.name;
    if (typeof info.code === "string") (error as Error & { code?: string }).code = info.code;
    hostErrors.add(error);
    return error;
  }

  function unwrapReply(text: string, onProgress?: (event: unknown) => void): unknown {
    const reply = codec.decode(text) as HostReply;
    // Events an engine could not deliver while the call was in flight came with the reply, in order.
    const events = reply.events;
    if (onProgress !== undefined && Array.isArray(events)) for (const event of events) onProgress(event);
    if (reply.ok) return reply.value;
    throw toGuestError(reply.error);
  }

  /** A call's arguments without its `{ onProgress }` option, and that callback (see HostModuleLabel.progress). */
  interface Prepared {
    readonly args: readonly unknown[];
    readonly onProgress?: (event: unknown) => void;
    readonly listener?: GuestListener;
  }

  function withoutProgress(module: string, args: readonly unknown[]): Prepared {
    const label = hasOwn.call(manifest.labels, module) ? manifest.labels[module] : undefined;
    const last = args[args.length - 1];
    if (label?.progress !== true || last === null || typeof last !== "object" || isArray(last) || last instanceof Uint8Array) return { args };
    const callback = hasOwn.call(last, "onProgress") ? (last as { onProgress?: unknown }).onProgress : undefined;
    if (typeof callback !== "function") return { args };
    const rest: Record<string, unknown> = {};
    for (const key of keysOf(last)) if (key !== "onProgress") rest[key] = (last as Record<string, unknown>)[key];
    const kept = args.slice(0, -1);
    // `tool({ onProgress })` still sends the (now empty) arguments object; `tool(args, { onProgress })` sends `args` alone.
    if (kept.length === 0 || keysOf(rest).length > 0) kept.push(rest);
    // Like an event listener in a browser: a callback that throws is reported, and the call goes on.
    const onProgress = (event: unknown): void => {
      try {
        apply(callback as (event: unknown) => unknown, undefined, [event]);
      } catch (error) {
        native.log("error", `Uncaught in onProgress of host:${module}: ${format([error])}`);
      }
    };
    return { args: kept, onProgress, listener: (eventText: string) => onProgress(codec.decode(eventText)) };
  }

  function encodeArgs(module: string, fn: string, args: readonly unknown[]): string {
    try {
      return codec.encode(args) as string;
    } catch (error) {
      throw new TypeError(
        `Arguments to host:${module}.${fn} must be JSON values or Uint8Array (${(error as Error).message})`,
      );
    }
  }

  const names = keysOf(manifest.modules);
  const available = names.length === 0 ? "none" : names.map((name) => `host:${name}`).join(", ");
  const loaded: Record<string, object> = Object.create(null) as Record<string, object>;
  const functionsOf: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;

  function moduleError(name: string, code: string, message: string): Error {
    const error = new Error(message);
    error.name = name;
    (error as Error & { code?: string }).code = code;
    return error;
  }

  /**
   * The error for a function a module does not have, worded in the guest from the guest's own text
   * and the module's function names (see guest-diagnostics.ts for why never on the host).
   */
  function missingMember(module: string, fn: string): TypeError {
    const error = new TypeError(diagnostics().missingFunction(manifest, module, fn, functionsOf[module] ?? []));
    (error as TypeError & { code?: string }).code = "HOST_FUNCTION_NOT_FOUND";
    return error;
  }

  /** Refuses a by-name function (`$batch`) naming a function the module does not have. */
  function checkNamed(module: string, fn: string, args: readonly unknown[]): void {
    const byName = hasOwn.call(manifest.labels, module) ? manifest.labels[module]?.byName : undefined;
    const named = args[0];
    if (byName === undefined || typeof named !== "string" || byName.indexOf(fn) === -1) return;
    if ((functionsOf[module] as readonly string[]).indexOf(named) === -1 || byName.indexOf(named) !== -1) throw missingMember(module, named);
  }

  function functionNames(name: string, listed: unknown): string[] {
    if (!Array.isArray(listed)) throw new TypeError(`host:${name} did not load`);
    return listed.map((fn) => String(fn));
  }

  /** The module object, built on first use; a lazy module is loaded from the host (guest blocked). */
  function moduleFor(name: string): object {
    const cached = loaded[name];
    if (cached !== undefined) return cached;
    const functions = manifest.modules[name];
    return install(name, functions === null || functions === undefined ? functionNames(name, unwrapReply(native.callSync(name, manifest.loadFunction, "[]"))) : functions);
  }

  function install(name: string, functions: readonly string[]): object {
    const cached = loaded[name];
    if (cached !== undefined) return cached;
    const exports: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    // "resources.read" is the member `read` of the namespace object `resources` (a module's resources
    // and prompts); a plain name is a function of the module itself.
    const namespaces: Record<string, Record<string, unknown>> = Object.create(null) as Record<string, Record<string, unknown>>;
    for (const fn of functions) {
      // A method definition gives the function its name and no `prototype`/constructor behaviour.
      const callable = {
        [fn](...given: unknown[]): unknown {
          checkNamed(name, fn, given);
          const { args, onProgress, listener } = withoutProgress(name, given);
          return unwrapReply(native.callSync(name, fn, encodeArgs(name, fn, args), listener), onProgress);
        },
      }[fn];
      const dot = fn.indexOf(".");
      if (dot <= 0) {
        exports[fn] = callable;
        continue;
      }
      const space = fn.slice(0, dot);
      const members = hasOwn.call(namespaces, space) ? (namespaces[space] as Record<string, unknown>) : (namespaces[space] = Object.create(null) as Record<string, unknown>);
      members[fn.slice(dot + 1)] = callable;
    }
    for (const space of keysOf(namespaces)) {
      if (!hasOwn.call(exports, space)) exports[space] = freeze(namespaces[space] as Record<string, unknown>);
    }
    functionsOf[name] = functions;
    // Reading a function the module does not have (`mod.x()`, `import { x }`) throws a TypeError
    // naming the module and suggesting the closest names, instead of QuickJS's "not a function".
    loaded[name] = new GuestProxy(freeze(exports), {
      get(target, key) {
        if (typeof key !== "string" || hasOwn.call(target, key) || PROBES.indexOf(key) !== -1) return target[key as string];
        throw missingMember(name, key);
      },
    });
    return loaded[name] as object;
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
    return moduleFor(name);
  }

  /**
   * Where the engine can overlap host calls, a lazy module is loaded without blocking the guest, so
   * `Promise.all` over several servers that are not running yet starts them at the same time.
   */
  function ready(module: string): Promise<unknown> {
    const callAsyncNative = native.callAsync;
    if (loaded[module] !== undefined || manifest.modules[module] !== null || callAsyncNative === undefined || !hasOwn.call(manifest.modules, module)) {
      return new Promise((resolve) => resolve(require(`host:${module}`)));
    }
    const listing = new Promise<string>((resolve) => resolve(callAsyncNative(module, manifest.loadFunction, "[]")));
    return apply(then, listing, [(text: string) => install(module, functionNames(module, unwrapReply(text)))]) as Promise<unknown>;
  }

  function callAsync(module: string, fn: string, given: readonly unknown[] = []): Promise<unknown> {
    let onProgress: ((event: unknown) => void) | undefined;
    const reply = apply(then, ready(module), [
      () => {
        const prepared = withoutProgress(module, given);
        onProgress = prepared.onProgress;
        return send(module, fn, prepared);
      },
    ]) as Promise<string>;
    return apply(then, reply, [(text: string) => unwrapReply(text, onProgress)]) as Promise<unknown>;
  }

  function send(module: string, fn: string, prepared: Prepared): Promise<string> | string {
    if ((functionsOf[module] as readonly string[]).indexOf(fn) === -1) throw missingMember(module, fn);
    checkNamed(module, fn, prepared.args);
    const argsText = encodeArgs(module, fn, prepared.args);
    const listener = prepared.listener;
    return native.callAsync === undefined ? native.callSync(module, fn, argsText, listener) : native.callAsync(module, fn, argsText, listener);
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
      callAsync,
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
      text = codec.encodeResult(value, flags);
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
      return diagnostics().describeResult(value, failure, manifest.maxResultChars, codec.wrapBytes);
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
