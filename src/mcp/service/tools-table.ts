import { serverToolsKey } from "../sanitise/index.js";

/**
 * The guest's `tools` global over every configured server (RunRequest.toolsGlobal): each server's
 * key (`tools.memory`, `tools["my-server"]`) -> its module `mcp-<name>`. A disabled server is in it
 * too, so that calling it says how to enable it. The global itself is guest code compiled into the
 * sandbox (src/sandbox/guest/guest-tools.ts): an unknown tool fails inside the call with the same
 * "did you mean" as `require("host:mcp-<name>")` gives, an unknown server (`tools.memroy`) at once,
 * with the closest names, all worded in the guest from the guest's own text.
 */
export function toolsGlobalTable(servers: readonly string[]): Readonly<Record<string, string>> {
  return Object.freeze(Object.fromEntries(servers.map((server) => [serverToolsKey(server), `mcp-${server}`])));
}
