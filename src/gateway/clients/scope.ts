import { GatewayError } from "../errors.js";
import type { Rate } from "./schema.js";

/**
 * Who a request comes from and what it may reach. `servers` limits every tool (code mode, scripts,
 * direct tools) to those upstream servers; `toolset` limits the client to one toolset's tools, as
 * direct tools and inside run_mcp_script. Unscoped clients (the single gateway token, a named token
 * with neither) see everything, as before.
 */
export interface ClientScope {
  readonly name: string;
  /** How the client proved itself: the single gateway token, a named token, or an OAuth access token. */
  readonly via: "gateway-token" | "client-token" | "oauth" | "none";
  /** For an OAuth access token: the person or service it speaks for (`sub`, else `client_id`). */
  readonly subject?: string;
  /** For a named client token: which one (name and creation time), so its sessions end when it is revoked or replaced. */
  readonly credential?: string;
  /** For an OAuth access token: when it stops being accepted (its `exp` plus the clock tolerance, epoch ms); responses it opened close then. */
  readonly acceptedUntil?: number;
  readonly toolset?: string;
  readonly servers?: readonly string[];
  readonly rate?: Rate;
}

export const UNSCOPED: ClientScope = { name: "default", via: "gateway-token" };

/**
 * Who a session, a rate bucket or a session pool slot belongs to: the name together with how it was
 * proven. Names alone can coincide (a client token or an OAuth entry named like the gateway token's
 * `default`), and one must never use the other's sessions.
 */
export function identityOf(scope: ClientScope): string {
  return `${scope.via}:${scope.name}`;
}

export function isScoped(scope: ClientScope): boolean {
  return scope.toolset !== undefined || scope.servers !== undefined;
}

export function allowsServer(scope: ClientScope, server: string): boolean {
  return scope.servers === undefined || scope.servers.includes(server);
}

/** `50/s`, `600/m` (also `/sec`, `/min`). */
export function parseRate(text: string): Rate {
  const match = /^\s*(\d{1,7})\s*\/\s*(s|sec|second|m|min|minute)\s*$/i.exec(text);
  const count = match === null ? NaN : Number(match[1]);
  if (match === null || !Number.isInteger(count) || count < 1) {
    throw new GatewayError("GATEWAY_CLIENT_INVALID", `--rate takes <count>/s or <count>/m, e.g. 50/s (got "${text}")`, { data: { rate: text } });
  }
  return { count, perMs: match[2]?.toLowerCase().startsWith("m") === true ? 60_000 : 1_000 };
}

export function formatRate(rate: Rate): string {
  return `${rate.count}/${rate.perMs === 1_000 ? "s" : "m"}`;
}

/**
 * The upstream servers whose resources, prompts, completions and log messages a client may reach
 * (undefined: all). A client limited to servers reaches theirs; a client limited to a toolset reaches
 * none, since a toolset names tools only (its scripts' modules carry no `resources`/`prompts` either).
 */
export type ServerReach = ReadonlySet<string> | undefined;

export function passthroughReach(scope: ClientScope | undefined): ServerReach {
  if (scope === undefined || !isScoped(scope)) return undefined;
  if (scope.toolset !== undefined) return new Set();
  return new Set(scope.servers);
}

export function reaches(reach: ServerReach, server: string): boolean {
  return reach === undefined || reach.has(server);
}
