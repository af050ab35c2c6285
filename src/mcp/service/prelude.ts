import { serverToolsKey } from "../sanitise/index.js";

/**
 * Trusted guest-side JavaScript that installs the `tools` global: one object per configured server,
 * whose properties are async functions (`await tools.memory.read_graph({})`,
 * `tools["my-server"].x(…)`). Calls go through `__mcpvm.callAsync`, so `Promise.all` over them
 * really overlaps on engines that allow it. An unknown tool fails inside the call with the same
 * "did you mean" as `require("host:mcp-<name>")` gives, a disabled server with how to enable it,
 * and an unknown server (`tools.memroy`) at once, with the closest names. These messages are built
 * in the guest, from the guest's own text: the host never quotes a guest-supplied name.
 */
export function toolsGlobalPrelude(servers: readonly string[]): string {
  const table = Object.fromEntries(servers.map((server) => [serverToolsKey(server), `mcp-${server}`]));
  return `(() => {
  const table = ${JSON.stringify(table)};
  const mcpvm = globalThis.__mcpvm;
  const call = mcpvm.callAsync;
  const hasOwn = Object.prototype.hasOwnProperty;
  // Names tools and tests read from any object; asking for one is not a mistake.
  const probes = ["then", "toJSON", "constructor", "toString", "valueOf", "toLocaleString", "prototype", "__proto__", "inspect", "asymmetricMatch", "$$typeof", "nodeType"];
  const readOnly = { set() { return false; }, defineProperty() { return false; }, deleteProperty() { return false; } };
  const serverProxy = (module) => new Proxy(Object.create(null), {
    ...readOnly,
    get(_target, tool) {
      // "then" must stay undefined so that awaiting a server object does not call the server.
      if (typeof tool !== "string" || tool === "then") return undefined;
      // A second argument carries options such as { onProgress } (the bootstrap takes the callback out).
      return (args, options) => call(module, tool, options === undefined ? [args === undefined ? {} : args] : [args === undefined ? {} : args, options]);
    },
  });
  const tools = Object.create(null);
  for (const key of Object.keys(table)) Object.defineProperty(tools, key, { value: serverProxy(table[key]), enumerable: true });
  Object.freeze(tools);
  const view = new Proxy(tools, {
    ...readOnly,
    get(target, key) {
      if (typeof key !== "string" || hasOwn.call(target, key) || probes.indexOf(key) !== -1) return target[key];
      const names = Object.keys(table);
      const shown = JSON.stringify(key.length > 80 ? key.slice(0, 80) + "…" : key);
      const hint = mcpvm.didYouMean(key, names) || " (configured: " + (names.join(", ") || "none") + ")";
      throw new TypeError("tools has no server " + shown + hint);
    },
  });
  Object.defineProperty(globalThis, "tools", { value: view, enumerable: false, writable: false, configurable: false });
})();`;
}
