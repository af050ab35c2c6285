import type { GuestToolsKit } from "./native.js";

/**
 * The guest's `tools` global (RunRequest.toolsGlobal): one object per key, whose properties are async
 * functions calling that key's host module (`await tools.memory.read_graph({})`,
 * `tools["my-server"].x(…)`). Calls go through `callAsync`, so `Promise.all` over them really
 * overlaps on engines that allow it. An unknown tool fails inside the call with the same "did you
 * mean" as `require("host:mcp-<name>")` gives, a disabled server with how to enable it, and an
 * unknown server (`tools.memroy`) at once, with the closest names. These messages are built in the
 * guest, from the guest's own text: the host never quotes a guest-supplied name.
 *
 * RUNS INSIDE THE SANDBOX (embedded via Function.prototype.toString as the bootstrap's "tools"
 * piece, compiled into the sandbox ahead of the run where the engine can): no references outside its
 * body. `tableText()` gives JSON of key -> module, asked for and parsed on first use; each key's object is made the first
 * time it is read. What a guest can observe is what a frozen object holding every key's object
 * gives: any other look at `tools` (its keys, a descriptor, `in`, extensibility) first makes every
 * key's object and freezes the target, and its keys come in the table's order.
 */
export function createGuestTools(tableText: () => string, kit: GuestToolsKit): object {
  const { create, freeze, keysOf, hasOwn, parse, Proxy: GuestProxy } = kit.builtins;
  const call = kit.callAsync;
  const describe = Object.getOwnPropertyDescriptor;
  const define = Object.defineProperty;
  const setPrototype = Reflect.setPrototypeOf;
  // Names tools and tests read from any object; asking for one is not a mistake.
  const probes = ["then", "toJSON", "constructor", "toString", "valueOf", "toLocaleString", "prototype", "__proto__", "inspect", "asymmetricMatch", "$$typeof", "nodeType"];
  const readOnly = {
    set(): boolean {
      return false;
    },
    defineProperty(): boolean {
      return false;
    },
    deleteProperty(): boolean {
      return false;
    },
  };
  let parsed: Record<string, string> | undefined;
  const table = (): Record<string, string> => (parsed ??= parse(tableText()) as Record<string, string>);
  const serverProxy = (module: string): object =>
    new GuestProxy(create(null) as object, {
      ...readOnly,
      get(_target, tool) {
        // "then" must stay undefined so that awaiting a server object does not call the server.
        if (typeof tool !== "string" || tool === "then") return undefined;
        // A second argument carries options such as { onProgress } (the bootstrap takes the callback out).
        return (args: unknown, options: unknown) => call(module, tool, options === undefined ? [args === undefined ? {} : args] : [args === undefined ? {} : args, options]);
      },
    });
  const tools = create(null) as Record<string, object>;
  const add = (key: string): void => void define(tools, key, { value: serverProxy(table()[key] as string), enumerable: true });
  let whole = false;
  /** Every key's object made and the target frozen: from here it is the object the guest would always have seen. */
  const all = (): Record<string, object> => {
    if (!whole) {
      for (const key of keysOf(table())) if (!hasOwn.call(tools, key)) add(key);
      freeze(tools);
      whole = true;
    }
    return tools;
  };
  return new GuestProxy(tools, {
    ...readOnly,
    get(target, key) {
      if (typeof key === "string" && !whole && !hasOwn.call(target, key) && hasOwn.call(table(), key)) add(key);
      if (typeof key !== "string" || hasOwn.call(target, key) || probes.indexOf(key) !== -1) return target[key as string];
      const names = keysOf(table());
      const shown = kit.builtins.stringify(key.length > 80 ? key.slice(0, 80) + "…" : key);
      const hint = kit.didYouMean(key, names) || " (configured: " + (names.join(", ") || "none") + ")";
      throw new kit.builtins.TypeErrorClass("tools has no server " + String(shown) + hint);
    },
    has(_target, key) {
      return key in all();
    },
    ownKeys() {
      all();
      return keysOf(table());
    },
    getOwnPropertyDescriptor(_target, key) {
      return describe(all(), key);
    },
    isExtensible() {
      all();
      return false;
    },
    preventExtensions() {
      all();
      return true;
    },
    setPrototypeOf(_target, proto) {
      return setPrototype(all(), proto);
    },
  });
}
