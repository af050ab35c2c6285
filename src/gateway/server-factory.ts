import { Server, type McpRequestContext } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import { errorMessage } from "../util/errors.js";
import type { ClientScope } from "./clients/scope.js";
import type { Gateway } from "./gateway.js";

/** The client the HTTP layer authenticated (carried in the SDK's authInfo); undefined on stdio. */
export function clientOf(ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }): ClientScope | undefined {
  return ctx.http?.authInfo?.extra?.client as ClientScope | undefined;
}

export const GATEWAY_SERVER_INFO = { name: "mcpvm-gateway", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "mcpvm gateway: one MCP server in front of many. Prefer run_mcp_script to call several tools in one step " +
  '(each server is a module: require("host:mcp-<server>")); list_mcp_tools and search_tools show the typed signatures. ' +
  "Toolsets (build-toolset, equip-toolset) expose chosen tools directly under flattened names such as git_status.";

/**
 * Builds the SDK server instances the transports ask for (one per stdio connection, per HTTP
 * session, or per modern HTTP request) over one Gateway, and keeps the live ones so a change of
 * the tool list reaches every connected client.
 */
export class GatewayServers {
  private readonly live = new Set<Server>();

  constructor(
    private readonly gateway: Gateway,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /**
   * A factory for serveStdio / createMcpHandler; `session` labels requests in logs when the
   * transport has none. Per-request instances (modern HTTP) are not tracked: their notifications
   * travel on the handler's subscription streams instead.
   */
  factory(session: (ctx: McpRequestContext) => string, options: { track: boolean }): (ctx: McpRequestContext) => Server {
    return (ctx) => this.create(session(ctx), options);
  }

  create(defaultSession: string, options: { track: boolean } = { track: true }): Server {
    const server = new Server(GATEWAY_SERVER_INFO, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS });
    server.setRequestHandler("tools/list", async (_request, ctx) => ({ tools: await this.gateway.listTools(clientOf(ctx)) }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const client = clientOf(ctx);
      const result = await this.gateway.callTool(name, args, { signal: ctx.mcpReq.signal, session: ctx.sessionId ?? defaultSession, rpcId: ctx.mcpReq.id, ...(client === undefined ? {} : { client }) });
      const outputSchema = this.gateway.equipment.direct(name)?.definition.outputSchema;
      return server.projectCallToolResult(result, result.isError === true ? undefined : outputSchema);
    });
    if (!options.track) return server;
    this.live.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.live.delete(server);
      previous?.();
    };
    return server;
  }

  /** notifications/tools/list_changed to every live connection (each transport routes it per era). */
  notifyToolsChanged(): void {
    for (const server of this.live) {
      server.sendToolListChanged().catch((error: unknown) => this.logger.debug({}, `list_changed not delivered to one connection: ${errorMessage(error)}`));
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.live].map((server) => server.close().catch(() => undefined)));
    this.live.clear();
  }
}
