import type { GuestCodec, GuestFormatter, GuestManifest, GuestNative, GuestRunner, HostReply } from "./native.js";

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
): GuestRunner {
  const manifest = JSON.parse(manifestText) as GuestManifest;
  const global = globalThis as unknown as Record<string, unknown>;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const stringify = JSON.stringify;
  const hasOwn = Object.prototype.hasOwnProperty;
  const apply = Reflect.apply;
  const then = Promise.prototype.then;
  const hostErrors = new WeakSet<object>();

  function toGuestError(info: { name: string; message: string; code?: string }): Error {
    const error = new Error(info.message);
    error.name = info.name;
    if (typeof info.code === "string") (error as Error & { code?: string }).code = info.code;
    hostErrors.add(error);
    return error;
  }

  function unwrapReply(text: string): unknown {
    const reply = codec.decode(text) as HostReply;
    if (reply.ok) return reply.value;
    throw toGuestError(reply.error);
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

  const names = Object.keys(manifest.modules);
  const available = names.length === 0 ? "none" : names.map((name) => `host:${name}`).join(", ");
  const loaded: Record<string, object> = Object.create(null) as Record<string, object>;
  const functionsOf: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;

  function moduleNotFound(message: string): Error {
    const error = new Error(message);
    error.name = "ModuleNotFoundError";
    (error as Error & { code?: string }).code = "MODULE_NOT_FOUND";
    return error;
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
    for (const fn of functions) {
      // A method definition gives the function its name and no `prototype`/constructor behaviour.
      exports[fn] = {
        [fn](...args: unknown[]): unknown {
          return unwrapReply(native.callSync(name, fn, encodeArgs(name, fn, args)));
        },
      }[fn];
    }
    functionsOf[name] = functions;
    loaded[name] = freeze(exports);
    return loaded[name] as object;
  }

  function require(specifier: unknown): object {
    if (typeof specifier !== "string") throw new TypeError('require() expects a module name such as "host:fs-read"');
    if (specifier.slice(0, 5) !== "host:") {
      throw moduleNotFound(
        `Cannot find module "${specifier}": the sandbox has no Node.js modules, files or network; ` +
          `only host modules exist (available: ${available})`,
      );
    }
    const name = specifier.slice(5);
    if (!hasOwn.call(manifest.modules, name)) throw moduleNotFound(`Unknown host module "${specifier}" (available: ${available})`);
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

  function callAsync(module: string, fn: string, args: readonly unknown[] = []): Promise<unknown> {
    const reply = apply(then, ready(module), [() => send(module, fn, args)]) as Promise<string>;
    return apply(then, reply, [unwrapReply]) as Promise<unknown>;
  }

  function send(module: string, fn: string, args: readonly unknown[]): Promise<string> | string {
    const functions = functionsOf[module] as readonly string[];
    if (functions.indexOf(fn) === -1) throw new TypeError(`host:${module} has no function "${fn}" (available: ${functions.join(", ")})`);
    const argsText = encodeArgs(module, fn, args);
    return native.callAsync === undefined ? native.callSync(module, fn, argsText) : native.callAsync(module, fn, argsText);
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
    value: freeze({ callAsync, modules: freeze(names.slice()) }),
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
      return stringify({ ok: false, kind: "thrown", error: { message: `Uncaught ${format([thrown])}`, fromHost: false } });
    } catch {
      return stringify({ ok: false, kind: "thrown", error: { message: "Uncaught exception", fromHost: false } });
    }
  }

  function describeResult(value: unknown): string {
    let text: string | undefined;
    try {
      text = codec.encode(value);
    } catch (error) {
      const name = error instanceof Error ? String(error.name) : "Error";
      const message = error instanceof Error ? String(error.message) : String(error);
      return stringify({ ok: false, kind: "unserializable", error: { name, message } });
    }
    if (text === undefined) return '{"ok":true}';
    if (text.length > manifest.maxResultChars) return stringify({ ok: false, kind: "too_large", chars: text.length });
    return `{"ok":true,"value":${text}}`;
  }

  return {
    start(main) {
      return apply(then, main(), [describeResult, describeThrown]) as Promise<string>;
    },
  };
}
