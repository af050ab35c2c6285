import { LOG_LEVEL_META_KEY, type LoggingLevel } from "@modelcontextprotocol/server";
import { isGatewayOrigin, isModernRequest, type GatewayOrigin } from "./origin.js";

/** RFC 5424 order, as MCP uses it: a message passes when it is at least as severe as the level the client set. */
const ORDER: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export function passesLevel(message: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  if (threshold === undefined) return true;
  return ORDER.indexOf(message) >= ORDER.indexOf(threshold);
}

/** The most verbose of the levels set (what an upstream must send for every client to get what it asked for). */
export function mostVerbose(levels: Iterable<LoggingLevel | undefined>): LoggingLevel | undefined {
  let most: LoggingLevel | undefined;
  for (const level of levels) {
    if (level !== undefined && (most === undefined || ORDER.indexOf(level) < ORDER.indexOf(most))) most = level;
  }
  return most;
}

/**
 * The level the origin's client asked for: a 2026-07-28 request's own (`_meta` logLevel, SEP-2577),
 * a 2025 connection's `logging/setLevel`; undefined when it asked for none.
 */
export function originLevel(origin: GatewayOrigin, connectionLevel: LoggingLevel | undefined): LoggingLevel | undefined {
  if (!isModernRequest(origin.ctx)) return connectionLevel;
  const asked = (origin.ctx.mcpReq.envelope as Record<string, unknown>)[LOG_LEVEL_META_KEY];
  return ORDER.includes(asked as LoggingLevel) ? (asked as LoggingLevel) : undefined;
}

/**
 * The level a request forwarded for `origin` carries to a 2026-07-28 upstream (which has no
 * logging/setLevel and logs only for requests that name a level): what the client asked for; for a
 * 2025 connection that set none, "debug": a 2025 upstream with no level set sends what it decides
 * (the SDK's, everything), which reaches that client, so the same client gets the same from either
 * era. A 2026-07-28 request that names none asks for none, as does any other caller (a fast-lane
 * call, none at all).
 */
export function forwardedLevel(origin: unknown, connectionLevel: (origin: GatewayOrigin) => LoggingLevel | undefined): LoggingLevel | undefined {
  if (!isGatewayOrigin(origin)) return undefined;
  return isModernRequest(origin.ctx) ? originLevel(origin, undefined) : (connectionLevel(origin) ?? "debug");
}

/**
 * Whether an upstream's log message may go on the origin's request. A 2026-07-28 request opts in
 * itself (`_meta` logLevel, SEP-2577): without it, none; a 2025 connection by `logging/setLevel`
 * (the level given; none set: every message).
 */
export function originTakesLog(origin: GatewayOrigin, message: LoggingLevel, connectionLevel: LoggingLevel | undefined): boolean {
  if (!isModernRequest(origin.ctx)) return passesLevel(message, connectionLevel);
  const asked = originLevel(origin, undefined);
  return asked !== undefined && passesLevel(message, asked);
}
