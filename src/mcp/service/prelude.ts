import { serverToolsKey } from "../sanitise/index.js";

/**
 * Trusted guest-side JavaScript that installs the `tools` global: one object per enabled server,
 * whose properties are async functions (`await tools.memory.read_graph({})`,
 * `tools["my-server"].x(…)`). Calls go through `__mcpvm.callAsync`, so `Promise.all` over them
 * really overlaps on engines that allow it. Unknown tools fail inside the call with the server's
 * list, exactly as `require("host:mcp-<name>")` would.
 */
export function toolsGlobalPrelude(servers: readonly string[]): string {
  const table = Object.fromEntries(servers.map((server) => [serverToolsKey(server), `mcp-${server}`]));
  return `(() => {
  const table = ${JSON.stringify(table)};
  const call = globalThis.__mcpvm.callAsync;
  const serverProxy = (module) => new Proxy(Object.create(null), {
    get(_target, tool) {
      // "then" must stay undefined so that awaiting a server object does not call the server.
      if (typeof tool !== "string" || tool === "then") return undefined;
      return (args) => call(module, tool, [args === undefined ? {} : args]);
    },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
  });
  const tools = Object.create(null);
  for (const key of Object.keys(table)) Object.defineProperty(tools, key, { value: serverProxy(table[key]), enumerable: true });
  Object.defineProperty(globalThis, "tools", { value: Object.freeze(tools), enumerable: false, writable: false, configurable: false });
})();`;
}
