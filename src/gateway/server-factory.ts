import { CLIENT_INFO_META_KEY, type McpRequestContext, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { CallerOptions } from "../mcp/client-manager/index.js";
import { telemetry } from "../telemetry/telemetry.js";
import { errorMessage } from "../util/errors.js";
import { passthroughReach, type ClientScope } from "./clients/scope.js";
import type { Gateway } from "./gateway.js";
import { GatewayServer } from "./invalid-params.js";
import { gatewayOrigin, isModernRequest, notifyOrigin } from "./passthrough/origin.js";
import { invalidParams } from "./passthrough/errors.js";
import type { Passthrough } from "./passthrough/passthrough.js";

/** The client the HTTP layer authenticated (carried in the SDK's authInfo); undefined on stdio. */
export function clientOf(ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }): ClientScope | undefined {
  return ctx.http?.authInfo?.extra?.client as ClientScope | undefined;
}

/** The MCP client's own name: from initialize on a 2025 session, from the request's envelope on 2026-07-28. */
function clientName(server: Server, ctx: ServerContext): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  const name = typeof info?.name === "string" ? info.name : server.getClientVersion()?.name;
  return name?.slice(0, 100);
}

export const GATEWAY_SERVER_INFO = { name: "mcpvm-gateway", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "mcpvm gateway: one MCP server in front of many. Prefer run_mcp_script to call several tools in one step " +
  '(each server is a module: require("host:mcp-<server>")); list_mcp_tools and search_tools show the typed signatures. ' +
  "Toolsets (build-toolset, equip-toolset) expose chosen tools directly under flattened names such as git_status. " +
  "Resources keep their upstream URIs; prompts are named like flattened tools (server_prompt).";

/** What the gateway declares: tools, and everything it passes through from upstream servers. */
export const GATEWAY_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
} as const;

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
    private readonly passthrough: Passthrough,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /** The live client connections (2025 sessions and stdio), for notifications. */
  liveServers(): Iterable<Server> {
    return this.live;
  }

  /**
   * A factory for serveStdio / createMcpHandler; `session` labels requests in logs when the
   * transport has none. Per-request instances (modern HTTP) are not tracked: their notifications
   * travel on the handler's subscription streams instead.
   */
  factory(session: (ctx: McpRequestContext) => string, options: { track: boolean }): (ctx: McpRequestContext) => Server {
    return (ctx) => this.create(session(ctx), options);
  }

  /** `client`: whom the HTTP layer authenticated for a 2025 session (undefined on stdio and for modern requests). */
  create(defaultSession: string, options: { track: boolean; client?: ClientScope } = { track: true }): Server {
    const server = new GatewayServer(GATEWAY_SERVER_INFO, { capabilities: GATEWAY_CAPABILITIES, instructions: INSTRUCTIONS });
    const passthrough = this.passthrough;
    passthrough.attach(server, options.client);
    // The client's roots changed: the upstreams it reaches are told, and ask again (passthrough/roots.ts).
    server.setNotificationHandler("notifications/roots/list_changed", () => passthrough.roots.clientChanged(server));
    const sessionOf = (ctx: ServerContext): string => ctx.sessionId ?? defaultSession;
    const callerOf = (ctx: ServerContext): CallerOptions => ({ signal: ctx.mcpReq.signal, origin: gatewayOrigin(server, ctx, sessionOf(ctx)) });
    // Resources, prompts, completions and logs: only of the servers the client's token reaches.
    const reachOf = (ctx: ServerContext) => passthroughReach(clientOf(ctx));
    const transport = defaultSession === "stdio" ? "stdio" : "http";
    // One span per request the gateway answers (src/telemetry; free when off). tools/call's is made by Gateway.callTool.
    // A config.json edit the gateway has not applied yet is applied first (src/gateway/config-follow.ts).
    const traced = <T>(ctx: ServerContext, work: () => Promise<T>): Promise<T> =>
      telemetry().mcpRequest({ method: ctx.mcpReq.method, session: sessionOf(ctx), rpcId: ctx.mcpReq.id, client: clientName(server, ctx), transport, meta: ctx.mcpReq._meta }, async () => {
        await this.gateway.checkConfig();
        return work();
      });
    server.setRequestHandler("tools/list", (request, ctx) => traced(ctx, async () => {
        noCursor(request.params);
        return { tools: await this.gateway.listTools(clientOf(ctx)) };
      }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const origin = gatewayOrigin(server, ctx, sessionOf(ctx));
      const client = clientOf(ctx);
      const progressToken = request.params._meta?.progressToken;
      const onProgress =
        progressToken === undefined
          ? undefined
          : (progress: { progress: number; total?: number; message?: string }): void => notifyOrigin(origin, { method: "notifications/progress", params: { ...progress, progressToken } });
      const call = async (signal: AbortSignal) => {
        const result = await passthrough.track(origin, () =>
          this.gateway.callTool(name, args, {
            signal,
            session: origin.session,
            rpcId: ctx.mcpReq.id,
            origin,
            client: client?.via === "client-token" || client?.via === "oauth" ? client.name : clientName(server, ctx),
            ...(client === undefined ? {} : { caller: client }),
            transport,
            meta: ctx.mcpReq._meta,
            ...(onProgress === undefined ? {} : { onProgress }),
          }),
        );
        const outputSchema = (this.gateway.equipment.direct(name) ?? (await this.gateway.exposed?.find(name, new Set(), {})))?.definition.outputSchema;
        return server.projectCallToolResult(result, result.isError === true ? undefined : outputSchema);
      };
      if (!isModernRequest(ctx)) return call(ctx.mcpReq.signal);
      // 2026-07-28: an upstream's elicitation or sampling turns into input_required rounds (passthrough/input-rounds.ts).
      const owner = client?.name ?? "";
      const fingerprint = JSON.stringify([name, args ?? {}]);
      const state = ctx.mcpReq.requestState();
      if (typeof state === "string") return passthrough.rounds.resume(state, owner, fingerprint, ctx.mcpReq.inputResponses, ctx.mcpReq.signal);
      return passthrough.rounds.start(origin, owner, fingerprint, ctx.mcpReq.signal, call);
    });
    server.setRequestHandler("resources/list", (request, ctx) => traced(ctx, async () => {
        noCursor(request.params);
        return passthrough.resources.list(callerOf(ctx), reachOf(ctx));
      }));
    server.setRequestHandler("resources/templates/list", (request, ctx) => traced(ctx, async () => {
        noCursor(request.params);
        return passthrough.resources.templatesList(callerOf(ctx), reachOf(ctx));
      }));
    server.setRequestHandler("resources/read", (request, ctx) => traced(ctx, () => passthrough.resources.read(request.params.uri, callerOf(ctx), reachOf(ctx))));
    server.setRequestHandler("resources/subscribe", async (request, ctx) => {
      await passthrough.subscribe(server, request.params.uri, callerOf(ctx), reachOf(ctx));
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", async (request, ctx) => {
      await passthrough.unsubscribe(server, request.params.uri, callerOf(ctx));
      return {};
    });
    server.setRequestHandler("prompts/list", (request, ctx) => traced(ctx, async () => {
        noCursor(request.params);
        return passthrough.prompts.list(callerOf(ctx), reachOf(ctx));
      }));
    server.setRequestHandler("prompts/get", (request, ctx) => traced(ctx, () => passthrough.prompts.get(request.params.name, request.params.arguments, callerOf(ctx), reachOf(ctx))));
    server.setRequestHandler("completion/complete", (request, ctx) => traced(ctx, () => passthrough.complete(request.params, callerOf(ctx), reachOf(ctx))));
    server.setRequestHandler("logging/setLevel", async (request, ctx) => {
      await passthrough.setLevel(server, request.params.level, callerOf(ctx), reachOf(ctx));
      return {};
    });
    const previous = server.onclose;
    server.onclose = () => {
      this.live.delete(server);
      void passthrough.dropSession(server);
      previous?.();
    };
    if (options.track) this.live.add(server);
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

/**
 * The gateway answers every list in one page (it never gives out a nextCursor), so a cursor sent
 * to it is one it never issued: refused as the spec asks (-32602), not answered with the first page
 * again, which a client paging on would take for more entries.
 */
function noCursor(params: { cursor?: string | undefined } | undefined): void {
  if (params?.cursor !== undefined) throw invalidParams("This gateway returns every entry in one page and gave out no cursor; list again without a cursor.");
}
