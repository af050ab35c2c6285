import { unavailableHostModule, type HostModule, type HostModules, type LazyHostModule } from "../../sandbox/types.js";

/** What the module table needs of each configured server: its name and whether it is enabled. */
export type ConfiguredServers = Readonly<Record<string, { readonly enabled?: boolean | undefined }>>;

export type McpModuleLoader = (server: string, context: { readonly signal: AbortSignal; readonly deadline: number }) => Promise<HostModule>;

/**
 * The `host:mcp-<name>` module of every configured server, from the configuration alone: an enabled
 * server's module is lazy (nothing is built, started or listed until the guest requires it, and then
 * `load` does it), a disabled server's module cannot load and says how to enable it. Kept apart from
 * the service (./module.ts) so a host can list the modules before it loads the service: a run that
 * requires no server never loads the client manager, the audit or the type generator.
 */
export function mcpModuleTable(servers: ConfiguredServers, load: McpModuleLoader, scrubError?: (text: string) => string): HostModules {
  const modules: Record<string, LazyHostModule> = {};
  for (const server of Object.keys(servers).sort()) {
    if (servers[server]?.enabled === false) {
      const message = `server "${server}" is disabled; enable it with \`mcpvm mcp enable ${server}\` (or /mcp enable ${server} in the REPL)`;
      modules[`mcp-${server}`] = unavailableHostModule({ message: scrubError ? scrubError(message) : message, code: "MCP_SERVER_DISABLED" });
      continue;
    }
    modules[`mcp-${server}`] = {
      lazy: true,
      load: (context) => load(server, context),
      // The guest words its own errors about this module ("server \"memory\" has no tool …") and checks
      // the tool $batch names before calling, so no host error ever quotes a name the guest made up.
      // `progress`: a call may pass `{ onProgress }` (see toolProgress in ./module.ts).
      label: { title: `server "${server}"`, member: "tool", byName: ["$batch"], progress: true },
    };
  }
  return modules;
}
