import { createHash } from "node:crypto";

/**
 * Access tokens already checked, so a client sending the same token on every request pays for
 * one signature check, not one per request (RS256 ~0.1–0.3 ms, ES256 more, on a loaded 2-core
 * machine — a large part of a direct call). Entries are keyed by the token's SHA-256 (the token
 * itself is not kept), live until the token expires or `maxAgeMs`, whichever is first, and the
 * oldest go first past `maxEntries`. Only accepted tokens are kept: a refusal is always decided
 * afresh. A key removed from the provider's key set stops accepting its cached tokens within
 * `maxAgeMs`.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly until: number }>();

  constructor(
    private readonly options: { readonly maxEntries: number; readonly maxAgeMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(token: string): T | undefined {
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps an accepted token until `expiresAt` (epoch ms) or the cache's own age limit. */
  set(token: string, value: T, expiresAt: number): void {
    const until = Math.min(expiresAt, this.now() + this.options.maxAgeMs);
    if (until <= this.now() || this.options.maxEntries === 0) return;
    const key = keyOf(token);
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function keyOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("base64url");
}
