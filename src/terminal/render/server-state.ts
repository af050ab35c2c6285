import type { ServerSummary } from "../../mcp/service/index.js";
import { displayInline } from "../display.js";
import type { Colours } from "../io.js";

/** "just now", "3 min ago", "2 h ago", "5 days ago" (or the date, when the clock disagrees). */
export function ago(iso: string, now: Date = new Date()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now.getTime() - then) / 1000);
  if (seconds < 0) return new Date(then).toISOString();
  if (seconds < 45) return "just now";
  if (seconds < 90 * 60) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

const LABELS: Readonly<Record<ServerSummary["state"], string>> = {
  disabled: "disabled",
  "needs-approval": "needs approval",
  "approval-error": "approval error",
  connecting: "connecting",
  connected: "connected",
  held: "held",
  failed: "failed",
  "needs-variable": "needs $VAR",
  "needs-input": "needs input",
  "needs-login": "needs login",
  idle: "idle",
};

/** The STATE cell of `mcp list`. */
export function stateCell(summary: ServerSummary, colours: Colours): string {
  const label = summary.state === "needs-variable" && summary.missingVariables.length > 0 ? `needs $${summary.missingVariables[0]}` : LABELS[summary.state];
  switch (summary.state) {
    case "connected":
      return colours.green(label);
    case "failed":
    case "approval-error":
      return colours.red(label);
    case "disabled":
    case "idle":
      return label === "idle" ? label : colours.dim(label);
    default:
      return colours.yellow(displayInline(label));
  }
}

/** One line per server that has something to say: why, since when, and what to run. */
export function stateNotes(list: readonly ServerSummary[], colours: Colours, now: Date = new Date()): string[] {
  const lines: string[] = [];
  for (const s of list) {
    if (s.detail === undefined || s.state === "disabled") continue;
    const failedAt = s.state === "failed" && s.lastConnect?.result === "failed" ? ` (${ago(s.lastConnect.at, now)})` : "";
    const next = s.next === undefined ? "" : colours.dim(` → ${displayInline(s.next)}`);
    lines.push(`  ${displayInline(s.name)}: ${displayInline(s.detail)}${failedAt}${next}`);
  }
  for (const s of list) {
    if (s.login === undefined || s.login.state === "none") continue;
    const who = s.login.subject === undefined ? "" : ` as ${displayInline(s.login.subject)}`;
    lines.push(`  ${displayInline(s.name)}: logged in${who}, ${loginExpiry(s.login.expiresAt, s.login.refreshable, now, s.login.grant)}${colours.dim(` → mcpvm mcp logout ${displayInline(s.name)}`)}`);
  }
  return lines;
}

/**
 * "token expires in 58 min", "token expired (refreshed at the next call)", … A client credentials
 * login has no person and no refresh token: it says that a new token is fetched unattended.
 */
export function loginExpiry(expiresAt: number | undefined, refreshable: boolean, now: Date = new Date(), grant?: "client_credentials"): string {
  const unattended = grant === "client_credentials";
  if (expiresAt === undefined) return unattended ? "token without expiry (client credentials)" : "token without expiry";
  const seconds = Math.round((expiresAt - now.getTime()) / 1000);
  if (seconds <= 0) {
    if (unattended) return "token expired (client credentials: a new token is fetched at the next call)";
    return refreshable ? "token expired (refreshed at the next call)" : "token expired (log in again)";
  }
  const left = seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : seconds < 172_800 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86_400)} days`;
  if (unattended) return `token expires in ${left} (client credentials: a new token is fetched unattended)`;
  return `token expires in ${left}${refreshable ? " (refreshable)" : ""}`;
}
