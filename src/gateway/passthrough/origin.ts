import type { Server, ServerContext } from "@modelcontextprotocol/server";

/**
 * The gateway client request a call was made for. It travels as CallerOptions.origin through the
 * client manager, so an upstream's elicitation or sampling request, a log message or progress can
 * go back to the client whose call caused it, related to that very request.
 */
export interface GatewayOrigin {
  readonly kind: "gateway-origin";
  /** The SDK server instance of the client's connection (a stdio connection, an HTTP session, or one modern request). */
  readonly server: Server;
  readonly ctx: ServerContext;
  readonly session: string;
}

export function gatewayOrigin(server: Server, ctx: ServerContext, session: string): GatewayOrigin {
  return { kind: "gateway-origin", server, ctx, session };
}

export function isGatewayOrigin(value: unknown): value is GatewayOrigin {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "gateway-origin";
}

/** A request of the 2026-07-28 era carries the per-request envelope; there, server→client requests become input_required rounds. */
export function isModernRequest(ctx: ServerContext): boolean {
  return ctx.mcpReq.envelope !== undefined;
}
