import { LOG_LEVEL_META_KEY, type LoggingLevel } from "@modelcontextprotocol/server";
import { isModernRequest, type GatewayOrigin } from "./origin.js";

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
 * Whether an upstream's log message may go on the origin's request. A 2026-07-28 request opts in
 * itself (`_meta` logLevel, SEP-2577): without it, none; a 2025 connection by `logging/setLevel`
 * (the level given; none set: every message).
 */
export function originTakesLog(origin: GatewayOrigin, message: LoggingLevel, connectionLevel: LoggingLevel | undefined): boolean {
  if (!isModernRequest(origin.ctx)) return passesLevel(message, connectionLevel);
  const asked = (origin.ctx.mcpReq.envelope as Record<string, unknown>)[LOG_LEVEL_META_KEY];
  return ORDER.includes(asked as LoggingLevel) && passesLevel(message, asked as LoggingLevel);
}
