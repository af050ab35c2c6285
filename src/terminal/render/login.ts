import type { LoginStatus, RevocationOutcome } from "../../mcp/oauth/index.js";
import { displayInline } from "../display.js";

/** "expires in 59 min": how long an access token has left, in the unit a person reads at a glance. */
export function describeExpiry(expiresAt: number | undefined, now: number): string {
  if (expiresAt === undefined) return "no expiry given";
  const seconds = Math.round((expiresAt - now) / 1000);
  if (seconds <= 0) return "expired";
  if (seconds < 120) return `expires in ${seconds} s`;
  if (seconds < 7200) return `expires in ${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `expires in ${Math.round(seconds / 3600)} h`;
  return `expires in ${Math.round(seconds / 86_400)} days`;
}

/**
 * A stored login in one phrase, shared by `mcpvm mcp login` and the dashboard: who (the token's
 * subject), scopes, expiry, refreshable. Subject and scopes come from the server: escaped.
 */
export function describeLogin(server: string, status: LoginStatus, now: number): string {
  if (status.state === "none") return `not logged in to ${server}`;
  const who = status.subject === undefined ? "" : ` as ${displayInline(status.subject)}`;
  const scopes = status.scope === undefined || status.scope === "" ? "no scopes named" : `scopes ${displayInline(status.scope)}`;
  return `logged in to ${server}${who} (${scopes}; ${describeExpiry(status.expiresAt, now)}${status.grant === "client_credentials" ? ", client credentials" : status.refreshable ? ", refreshable" : ""})`;
}

/** What a login that just finished amounts to: the login, or that the server never asked for one. */
export function describeLoginOutcome(server: string, status: LoginStatus, now: number): string {
  if (status.state === "none") return `${server} did not ask for a login: it answers without one (nothing stored)`;
  return describeLogin(server, status, now);
}

/** What `mcpvm mcp logout` (and the dashboard's "Log out") did, in one line. */
export function describeLogout(server: string, outcome: RevocationOutcome | undefined): string {
  if (outcome === undefined) return `${server} had no login stored`;
  if (outcome === "revoked") return `logged out of ${server}: tokens revoked at the server and removed`;
  if (outcome === "unsupported") return `logged out of ${server}: tokens removed (the server offers no revocation endpoint)`;
  return `logged out of ${server}: tokens removed; revoking them at the server failed (${displayInline(outcome.failed)})`;
}
