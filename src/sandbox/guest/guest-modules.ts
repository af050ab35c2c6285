import type { GuestCodec, GuestKit, GuestListener, GuestManifest, GuestModules, GuestNative, HostReply } from "./native.js";

/**
 * Host modules in the guest: the module objects `require("host:x")` returns, their calls (arguments
 * encoded, replies decoded, `{ onProgress }` split off, by-name checks), lazy modules loaded from the
 * host, `require`'s checks and errors, and `__mcpvm.callAsync`. RUNS INSIDE THE SANDBOX (embedded via Function.prototype.toString as
 * the bootstrap's "modules" piece): no references outside its body; built-ins come from `kit`, which
 * the bootstrap captured before any user code ran. Compiled on a run's first `require` of a host
 * module (or ahead, while the engine is idle), so a run that calls no host module never compiles it.
 *
 * The bootstrap's `require` and `__mcpvm.callAsync` are thin and call into this.
 */
export function createGuestModules(native: GuestNative, manifest: GuestManifest, codec: GuestCodec, kit: GuestKit): GuestModules {
  const { freeze, create, keysOf, hasOwn, isArray, apply, then, Proxy: GuestProxy, Bytes, ErrorClass, TypeErrorClass, PromiseClass } = kit.builtins;
  const format = kit.format;
  const diagnostics = kit.diagnostics;
  // Names tools and tests read from any object ("is it a thenable?", "how does it print?"); asking a
  // module for one of these is not a mistake, so it answers undefined instead of throwing.
  const PROBES = ["then", "toJSON", "constructor", "toString", "valueOf", "toLocaleString", "prototype", "__proto__", "inspect", "asymmetricMatch", "$$typeof", "nodeType"];
  const loaded: Record<string, object> = create(null) as Record<string, object>;
  const functionsOf: Record<string, readonly string[]> = create(null) as Record<string, readonly string[]>;

  function toGuestError(info: { name: string; message: string; code?: string }): Error {
    const error = new ErrorClass(info.message);
    error.name = info.name;
    if (typeof info.code === "string") (error as Error & { code?: string }).code = info.code;
    kit.hostErrors.add(error);
    return error;
  }

  function unwrapReply(text: string, onProgress?: (event: unknown) => void): unknown {
    // The commonest reply, a string value, comes raw after a U+0001 (native.ts, RAW_STRING_REPLY).
    const mark = text.charCodeAt(0);
    if (mark === 1) return text.slice(1);
    // A value alone (RAW_VALUE_REPLY): its JSON text, or nothing for undefined.
    if (mark === 2) return text.length === 1 ? undefined : codec.decode(text.slice(1));
    const reply = codec.decode(text) as HostReply;
    // Events an engine could not deliver while the call was in flight came with the reply, in order.
    const events = reply.events;
    if (onProgress !== undefined && isArray(events)) for (const event of events) onProgress(event);
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
    if (label?.progress !== true || last === null || typeof last !== "object" || isArray(last) || last instanceof Bytes) return { args };
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

  /**
   * Whether no argument is an object: then the codec's replacer (a guest function QuickJS calls for
   * every value, the array's own included) has nothing to act on, and JSON.stringify alone writes the
   * same text. Primitives have no toJSON to run; the array's own runs either way.
   */
  function primitives(args: readonly unknown[]): boolean {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (typeof arg === "object" && arg !== null) return false;
    }
    return true;
  }

  function encodeArgs(module: string, fn: string, args: readonly unknown[]): string {
    try {
      return codec.encode(args) as string;
    } catch (error) {
      throw argumentsError(module, fn, error);
    }
  }

  function argumentsError(module: string, fn: string, error: unknown): TypeError {
    return new TypeErrorClass(`Arguments to host:${module}.${fn} must be JSON values or Uint8Array (${(error as Error).message})`);
  }

  /**
   * The error for a function a module does not have, worded in the guest from the guest's own text
   * and the module's function names (see guest-diagnostics.ts for why never on the host).
   */
  function missingMember(module: string, fn: string): TypeError {
    const error = new TypeErrorClass(diagnostics().missingFunction(manifest, module, fn, functionsOf[module] ?? []));
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

  function moduleError(name: string, code: string, message: string): Error {
    const error = new ErrorClass(message);
    error.name = name;
    (error as Error & { code?: string }).code = code;
    return error;
  }

  // Named by its key, as in the bootstrap: the bundler renames a binding called `require` (require2).
  const { require } = {
    require(specifier: unknown): object {
      if (typeof specifier !== "string") throw new TypeErrorClass('require() expects a module name such as "host:fs-read"');
      if (specifier.slice(0, 5) !== "host:") {
        const names = keysOf(manifest.modules);
        const available = names.length === 0 ? "none" : names.map((name) => `host:${name}`).join(", ");
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
      return load(name);
    },
  };

  function functionNames(name: string, listed: unknown): string[] {
    if (!isArray(listed)) throw new TypeErrorClass(`host:${name} did not load`);
    return listed.map((fn) => String(fn));
  }

  /** The module object, built on first use; a lazy module is loaded from the host (guest blocked). */
  function load(name: string): object {
    const cached = loaded[name];
    if (cached !== undefined) return cached;
    const functions = manifest.modules[name];
    return install(name, functions === null || functions === undefined ? functionNames(name, unwrapReply(native.callSync(name, manifest.loadFunction, "[]"))) : functions);
  }

  function install(name: string, functions: readonly string[]): object {
    const cached = loaded[name];
    if (cached !== undefined) return cached;
    const exports: Record<string, unknown> = create(missingMembers(name)) as Record<string, unknown>;
    // "resources.read" is the member `read` of the namespace object `resources` (a module's resources
    // and prompts); a plain name is a function of the module itself.
    const namespaces: Record<string, Record<string, unknown>> = create(null) as Record<string, Record<string, unknown>>;
    // What a call's checks depend on, read once per module instead of on every call: the guest's
    // interpreter pays for each function call and property read a call makes.
    const label = hasOwn.call(manifest.labels, name) ? manifest.labels[name] : undefined;
    const progress = label?.progress === true;
    const byName = label?.byName;
    const { stringify, replacer } = codec;
    for (const fn of functions) {
      const named = byName !== undefined && byName.indexOf(fn) !== -1;
      // A method definition gives the function its name and no `prototype`/constructor behaviour.
      const callable = {
        [fn](...given: unknown[]): unknown {
          if (named) checkNamed(name, fn, given);
          const last = given[given.length - 1];
          if (progress && last !== null && typeof last === "object") {
            const { args, onProgress, listener } = withoutProgress(name, given);
            return unwrapReply(native.callSync(name, fn, encodeArgs(name, fn, args), listener), onProgress);
          }
          let argsText: string;
          try {
            argsText = (primitives(given) ? stringify(given) : stringify(given, replacer)) as string;
          } catch (error) {
            throw argumentsError(name, fn, error);
          }
          return unwrapReply(native.callSync(name, fn, argsText));
        },
      }[fn];
      const dot = fn.indexOf(".");
      if (dot <= 0) {
        exports[fn] = callable;
        continue;
      }
      const space = fn.slice(0, dot);
      const members = hasOwn.call(namespaces, space) ? (namespaces[space] as Record<string, unknown>) : (namespaces[space] = create(null) as Record<string, unknown>);
      members[fn.slice(dot + 1)] = callable;
    }
    for (const space of keysOf(namespaces)) {
      if (!hasOwn.call(exports, space)) exports[space] = freeze(namespaces[space] as Record<string, unknown>);
    }
    functionsOf[name] = functions;
    loaded[name] = freeze(exports);
    return loaded[name] as object;
  }

  /**
   * The prototype of a module object. Reading a function the module does not have (`mod.x()`,
   * `import { x }`) falls through to it and throws a TypeError naming the module and suggesting the
   * closest names, instead of QuickJS's "not a function"; names tools and tests probe answer
   * undefined. The module's own functions are found before it, so a call runs no trap in the guest.
   */
  function missingMembers(name: string): object {
    return new GuestProxy(create(null) as object, {
      get(_target, key) {
        if (typeof key !== "string" || PROBES.indexOf(key) !== -1) return undefined;
        throw missingMember(name, key);
      },
    });
  }

  /**
   * Where the engine can overlap host calls, a lazy module is loaded without blocking the guest, so
   * `Promise.all` over several servers that are not running yet starts them at the same time.
   */
  function ready(module: string): Promise<unknown> {
    const callAsyncNative = native.callAsync;
    if (loaded[module] !== undefined || manifest.modules[module] !== null || callAsyncNative === undefined || !hasOwn.call(manifest.modules, module)) {
      return new PromiseClass((resolve) => resolve(require(`host:${module}`)));
    }
    const listing = new PromiseClass<string>((resolve) => resolve(callAsyncNative(module, manifest.loadFunction, "[]")));
    return apply(then, listing, [(text: string) => install(module, functionNames(module, unwrapReply(text)))]) as Promise<unknown>;
  }

  function callAsync(module: string, fn: string, given: readonly unknown[]): Promise<unknown> {
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

  return { require, callAsync };
}
