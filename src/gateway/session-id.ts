import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * 2025-era session ids that every replica can check: `s1.<payload>.<mac>`, the payload the
 * base64url JSON of what a replica needs to rebuild the session (the client it belongs to, the
 * protocol version it asked for, when it began, a nonce, and what its initialize declared: the client
 * capabilities and clientInfo, so a rebuilt session still offers roots, sampling and elicitation), the mac an HMAC-SHA256 of it under the
 * key all replicas share. A replica that never saw the session verifies the mac and rebuilds the
 * session's server instance, so no load-balancer stickiness is needed; a forged or altered id,
 * or one presented by another client, is refused.
 */
export const SESSION_ID_VERSION = "s1";

const MAX_INFO = 64;
// The id travels in a header on every request: capabilities beyond this (large `experimental` blobs) are cut to what the gateway uses.
const MAX_CAPABILITIES_JSON = 400;
/** The client capabilities the gateway acts on (server→client requests it forwards). */
const USED_CAPABILITIES = ["roots", "sampling", "elicitation"] as const;

/** What of an initialize's capabilities the id carries: all of them if small, else those the gateway uses, else their names only. */
function compactCapabilities(capabilities: Record<string, unknown>): Record<string, unknown> {
  if (JSON.stringify(capabilities).length <= MAX_CAPABILITIES_JSON) return capabilities;
  const used = Object.fromEntries(USED_CAPABILITIES.filter((k) => capabilities[k] !== undefined).map((k) => [k, capabilities[k]]));
  if (JSON.stringify(used).length <= MAX_CAPABILITIES_JSON) return used;
  return Object.fromEntries(Object.keys(used).map((k) => [k, {}]));
}

const payloadSchema = z
  .object({
    /** The client that opened the session (identityOf: how it authenticated and its name). */
    c: z.string().min(1).max(160),
    /** The protocol version its initialize asked for. */
    p: z.string().min(1).max(32),
    /** Epoch ms when it began. */
    t: z.number().int(),
    n: z.string().min(8).max(64),
    /** The client capabilities its initialize declared (ids signed before these were kept have none). */
    k: z.record(z.string(), z.unknown()).optional(),
    /** Its clientInfo. */
    i: z.object({ name: z.string().max(MAX_INFO), version: z.string().max(MAX_INFO) }).strict().optional(),
  })
  .strict();

export interface ClientDeclaration {
  readonly capabilities: Record<string, unknown>;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

export type SessionClaims = Readonly<{ client: string; protocolVersion: string; issuedAt: number; declared?: ClientDeclaration }>;

function mac(key: Buffer, payload: string): Buffer {
  return createHmac("sha256", key).update(`${SESSION_ID_VERSION}.${payload}`, "utf8").digest();
}

export function signSessionId(key: Buffer, claims: SessionClaims): string {
  const declared = claims.declared;
  const fields = {
    c: claims.client,
    p: claims.protocolVersion,
    t: claims.issuedAt,
    n: randomBytes(12).toString("base64url"),
    ...(declared === undefined
      ? {}
      : { k: compactCapabilities(declared.capabilities), i: { name: declared.clientInfo.name.slice(0, MAX_INFO), version: declared.clientInfo.version.slice(0, MAX_INFO) } }),
  };
  const payload = Buffer.from(JSON.stringify(fields), "utf8").toString("base64url");
  return `${SESSION_ID_VERSION}.${payload}.${mac(key, payload).toString("base64url")}`;
}

/** The claims of a session id this key signed, or undefined (malformed, another key, altered). */
export function verifySessionId(key: Buffer, id: string): SessionClaims | undefined {
  if (id.length > 2048) return undefined;
  const [version, payload, given, ...rest] = id.split(".");
  if (version !== SESSION_ID_VERSION || payload === undefined || given === undefined || rest.length > 0) return undefined;
  const expected = mac(key, payload);
  const presented = Buffer.from(given, "base64url");
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    if (!parsed.success) return undefined;
    const { c, p, t, k, i } = parsed.data;
    return { client: c, protocolVersion: p, issuedAt: t, ...(k === undefined ? {} : { declared: { capabilities: k, clientInfo: i ?? { name: "unknown", version: "0" } } }) };
  } catch {
    return undefined;
  }
}

/** The protocol version, capabilities and clientInfo of an initialize request, as a session id keeps them. */
export function initializeClaims(body: unknown): { protocolVersion: string; declared: ClientDeclaration } {
  const params = (body as { params?: { protocolVersion?: unknown; capabilities?: unknown; clientInfo?: { name?: unknown; version?: unknown } } }).params;
  const requested = params?.protocolVersion;
  const capabilities = params?.capabilities;
  const info = params?.clientInfo;
  return {
    protocolVersion: typeof requested === "string" ? requested.slice(0, 32) : "2025-03-26",
    declared: {
      capabilities: typeof capabilities === "object" && capabilities !== null && !Array.isArray(capabilities) ? (capabilities as Record<string, unknown>) : {},
      clientInfo: { name: typeof info?.name === "string" ? info.name : "unknown", version: typeof info?.version === "string" ? info.version : "0" },
    },
  };
}
