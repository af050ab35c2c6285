import type { ServerRequestContext } from "../../mcp/client-manager/index.js";
import { passthroughReach, reaches, type ClientScope } from "../clients/scope.js";
import { isFastLaneOrigin, isGatewayOrigin, type GatewayOrigin } from "./origin.js";

/**
 * The client request an upstream's request or message belongs to: as resolved by the manager, else
 * the only gateway call in flight (`active`), when its client may reach `server`. Never a guess that
 * could hand one client's question or log to another.
 */
export function originOf(resolved: ServerRequestContext["origin"] | undefined, server: string, active: ReadonlySet<GatewayOrigin>): GatewayOrigin | undefined {
  // A fast-lane call in flight on that server makes the guess below unsafe: the request may be its.
  if (fastLaneInvolved(resolved)) return undefined;
  if (resolved !== undefined && isGatewayOrigin(resolved.origin)) return resolved.origin;
  const fromInFlight = resolved?.inFlight.filter(isGatewayOrigin) ?? [];
  if (fromInFlight.length === 1) return fromInFlight[0];
  // The only gateway call in flight may be on another server: its client must be one that reaches this one.
  const only = active.size === 1 ? [...active][0] : undefined;
  return only !== undefined && reaches(passthroughReach(clientOfOrigin(only)), server) ? only : undefined;
}

/** The request or message came during a fast-lane call, or while one was in flight on that server with others. */
export function fastLaneInvolved(resolved: ServerRequestContext["origin"] | undefined): boolean {
  if (resolved === undefined) return false;
  return isFastLaneOrigin(resolved.origin) || (resolved.how === "unknown" && resolved.inFlight.some(isFastLaneOrigin));
}

/** The client the HTTP layer authenticated for this call (as server-factory's clientOf); undefined on stdio. */
function clientOfOrigin(origin: GatewayOrigin): ClientScope | undefined {
  const http = (origin.ctx as { http?: { authInfo?: { extra?: Record<string, unknown> } } }).http;
  return http?.authInfo?.extra?.client as ClientScope | undefined;
}
