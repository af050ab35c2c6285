import type { LoggingLevel } from "@modelcontextprotocol/server";

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
