import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** `Authorization: Bearer <token>`, compared in constant time (digests, so lengths do not leak). */
export function bearerMatches(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization;
  if (typeof header !== "string") return false;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (match?.[1] === undefined) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}
