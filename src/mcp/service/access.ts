import { isLazyHostModule, unavailableHostModule, type HostFunction, type HostModule, type HostModules } from "../../sandbox/types.js";
import type { McpService } from "./service.js";

/**
 * What one run may reach of the MCP servers: only these servers (`servers`), and of them only
 * these tools (`tools`, "server.tool" with the server's own tool names). Absent fields allow all.
 * The gateway builds it from the calling client's token, so a script cannot reach past it.
 */
export interface McpAccess {
  readonly servers?: ReadonlySet<string>;
  readonly tools?: ReadonlySet<string>;
}

export function accessAllows(access: McpAccess | undefined, server: string, tool?: string): boolean {
  if (access === undefined) return true;
  if (access.servers !== undefined && !access.servers.has(server)) return false;
  if (tool !== undefined && access.tools !== undefined && !access.tools.has(`${server}.${tool}`)) return false;
  if (tool === undefined && access.tools !== undefined) return [...access.tools].some((ref) => ref.startsWith(`${server}.`));
  return true;
}

/**
 * The run's `host:mcp-<server>` modules cut to `access`: a server outside it cannot be required
 * (the guest's require says so), and a module of an allowed server has only the allowed tools,
 * with `$batch` refusing any other name. Other modules pass unchanged.
 */
export function restrictMcpModules(modules: HostModules, service: McpService, access: McpAccess): HostModules {
  const restricted: Record<string, HostModules[string]> = { ...modules };
  for (const server of service.serverNames()) {
    const key = `mcp-${server}`;
    const module = modules[key];
    if (module === undefined) continue;
    if (!accessAllows(access, server)) {
      restricted[key] = unavailableHostModule({ message: `server "${server}" is not available to this gateway client (its token does not allow it)`, code: "MCP_SERVER_NOT_ALLOWED" });
      continue;
    }
    if (access.tools === undefined || !isLazyHostModule(module)) continue;
    restricted[key] = {
      ...module,
      load: async (context: { readonly signal: AbortSignal; readonly deadline: number }) => {
        const [loaded, catalog] = await Promise.all([module.load(context), service.catalog(server, context)]);
        const allowed = new Set(catalog.tools.filter((t) => accessAllows(access, server, t.originalName)).map((t) => t.jsName));
        return onlyTools(loaded, allowed);
      },
    };
  }
  return restricted;
}

function onlyTools(module: HostModule, allowed: ReadonlySet<string>): HostModule {
  const functions: Record<string, HostFunction> = {};
  for (const [name, fn] of Object.entries(module)) if (allowed.has(name)) functions[name] = fn;
  const batch = module.$batch;
  if (batch !== undefined) {
    functions.$batch = (args, context) => {
      if (typeof args[0] !== "string" || !allowed.has(args[0])) return Promise.reject(new Error("$batch: that tool is not available to this gateway client"));
      return batch(args, context);
    };
  }
  return functions;
}
