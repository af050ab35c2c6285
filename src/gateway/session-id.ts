import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * 2025-era session ids that every replica can check: `s1.<payload>.<mac>`, the payload the
 * base64url JSON of what a replica needs to rebuild the session (the client it belongs to, the
 * protocol version it asked for, when it began, a nonce), the mac an HMAC-SHA256 of it under the
 * key all replicas share. A replica that never saw the session verifies the mac and rebuilds the
 * session's server instance, so no load-balancer stickiness is needed; a forged or altered id,
 * or one presented by another client, is refused.
 */
export const SESSION_ID_VERSION = "s1";

const payloadSchema = z
  .object({
    /** The client (token name) that opened the session. */
    c: z.string().min(1).max(128),
    /** The protocol version its initialize asked for. */
    p: z.string().min(1).max(32),
    /** Epoch ms when it began. */
    t: z.number().int(),
    n: z.string().min(8).max(64),
  })
  .strict();

export type SessionClaims = Readonly<{ client: string; protocolVersion: string; issuedAt: number }>;

function mac(key: Buffer, payload: string): Buffer {
  return createHmac("sha256", key).update(`${SESSION_ID_VERSION}.${payload}`, "utf8").digest();
}

export function signSessionId(key: Buffer, claims: SessionClaims): string {
  const payload = Buffer.from(JSON.stringify({ c: claims.client, p: claims.protocolVersion, t: claims.issuedAt, n: randomBytes(12).toString("base64url") }), "utf8").toString("base64url");
  return `${SESSION_ID_VERSION}.${payload}.${mac(key, payload).toString("base64url")}`;
}

/** The claims of a session id this key signed, or undefined (malformed, another key, altered). */
export function verifySessionId(key: Buffer, id: string): SessionClaims | undefined {
  if (id.length > 1024) return undefined;
  const [version, payload, given, ...rest] = id.split(".");
  if (version !== SESSION_ID_VERSION || payload === undefined || given === undefined || rest.length > 0) return undefined;
  const expected = mac(key, payload);
  const presented = Buffer.from(given, "base64url");
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return parsed.success ? { client: parsed.data.c, protocolVersion: parsed.data.p, issuedAt: parsed.data.t } : undefined;
  } catch {
    return undefined;
  }
}
