import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type Server, type ServerContext } from "@modelcontextprotocol/server";

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
  /** Notifications sent on the request's stream and not yet written: the response waits for them. */
  readonly pending: Set<Promise<void>>;
  /** Aborted when the gateway's work for the request ends (answered, failed, cancelled): what it still asks the client is withdrawn. */
  readonly ended: AbortController;
}

export function gatewayOrigin(server: Server, ctx: ServerContext, session: string): GatewayOrigin {
  return { kind: "gateway-origin", server, ctx, session, pending: new Set(), ended: new AbortController() };
}

/**
 * The signal of a request the gateway forwards to the origin's client for an upstream: aborted when
 * the upstream withdraws it, the client cancels the call it belongs to, or that call ends anyway (a
 * timeout, the upstream gone). The client then gets notifications/cancelled and stops asking its
 * person, rather than showing a form for a call that is over.
 */
export function forwardedSignal(origin: GatewayOrigin, upstream: AbortSignal): AbortSignal {
  return AbortSignal.any([upstream, origin.ctx.mcpReq.signal, origin.ended.signal]);
}

/** Sends a notification related to the origin's request, remembered until written (or failed). */
export function notifyOrigin(origin: GatewayOrigin, notification: Parameters<ServerContext["mcpReq"]["notify"]>[0]): void {
  let sent: Promise<void>;
  try {
    sent = origin.ctx.mcpReq.notify(notification).catch(() => undefined);
  } catch {
    return;
  }
  origin.pending.add(sent);
  void sent.finally(() => origin.pending.delete(sent));
}

/** Waits for the notifications of the request to be written, so none arrives after its response. */
export async function flushOrigin(origin: GatewayOrigin): Promise<void> {
  while (origin.pending.size > 0) await Promise.allSettled([...origin.pending]);
}

export function isGatewayOrigin(value: unknown): value is GatewayOrigin {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "gateway-origin";
}

/** What the client declared it can answer: at initialize (2025), or in the request's envelope (2026-07-28). */
export function clientCapabilities(origin: GatewayOrigin): ClientCapabilities | undefined {
  const envelope = origin.ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  if (declared !== null && typeof declared === "object") return declared as ClientCapabilities;
  return origin.server.getClientCapabilities();
}

/** A request of the 2026-07-28 era carries the per-request envelope; there, server→client requests become input_required rounds. */
export function isModernRequest(ctx: ServerContext): boolean {
  return ctx.mcpReq.envelope !== undefined;
}

/**
 * A call answered by the HTTP fast lane (src/gateway/fast-lane): no SDK server instance, and a
 * client that declared nothing an upstream's request could reach. An upstream's elicitation or
 * sampling during it is declined (as the SDK path declines it for such a client), its log
 * messages are not forwarded, and it is never mistaken for another client's call.
 */
export interface FastLaneOrigin {
  readonly kind: "fast-lane-origin";
  readonly session: string;
}

export function isFastLaneOrigin(value: unknown): value is FastLaneOrigin {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "fast-lane-origin";
}
