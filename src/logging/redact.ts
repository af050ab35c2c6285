/**
 * Redaction by value: every secret (env values, header values, prompted inputs) is replaced by a
 * mask wherever it appears, including the encoded forms a value takes on its way through URLs,
 * JSON strings and base64 bodies. Short values are ignored: masking "1" or "on" everywhere would
 * destroy output without protecting anything.
 */
export const REDACTED = "****";
export const MIN_SECRET_LENGTH = 4;

/**
 * A number derived from guest input (a length, a count, an index) for text that passes the
 * redactor on its way back to the guest: shown only while it has at most 3 digits, so it can never
 * be masked itself. A larger one could equal a digits-only secret, and its masking would tell the
 * guest so (redaction as an oracle).
 */
export function guestNumberText(value: number | string): string {
  const text = String(value);
  return /^\d{1,3}$/.test(text) ? text : "1000 or more";
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every spelling under which a secret may appear in text we print. */
export function secretVariants(secret: string): string[] {
  const variants = new Set<string>([secret]);
  variants.add(encodeURIComponent(secret));
  variants.add(encodeURI(secret));
  variants.add(JSON.stringify(secret).slice(1, -1));
  variants.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1));
  const base64 = Buffer.from(secret, "utf8").toString("base64");
  variants.add(base64);
  variants.add(base64.replace(/=+$/, ""));
  variants.add(Buffer.from(secret, "utf8").toString("base64url"));
  // A secret embedded in a longer base64 body is aligned at one of three byte offsets; the
  // stable middle part of each alignment identifies it (a few characters at the edges depend on
  // the neighbouring bytes and are dropped).
  for (const offset of [1, 2]) {
    const shifted = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret, "utf8")]).toString("base64");
    const stable = shifted.slice(Math.ceil((offset * 4) / 3) + 1, -4);
    if (stable.length >= 8) variants.add(stable);
  }
  const core = base64.slice(0, -4);
  if (core.length >= 8) variants.add(core);
  return [...variants].filter((v) => v.length >= MIN_SECRET_LENGTH);
}

export class Redactor {
  private pattern: RegExp | undefined;
  private readonly secrets = new Set<string>();
  /** Longest variant; a stream must hold back this many characters minus one to catch a split secret. */
  private longest = 0;

  constructor(secrets: Iterable<string> = []) {
    this.add(secrets);
  }

  add(secrets: Iterable<string>): void {
    let changed = false;
    for (const secret of secrets) {
      if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret)) continue;
      this.secrets.add(secret);
      changed = true;
    }
    if (!changed) return;
    const variants = [...this.secrets].flatMap(secretVariants).sort((a, b) => b.length - a.length);
    this.longest = variants[0]?.length ?? 0;
    this.pattern = variants.length > 0 ? new RegExp(variants.map(escapeRegExp).join("|"), "g") : undefined;
  }

  get size(): number {
    return this.secrets.size;
  }

  get holdBack(): number {
    return Math.max(0, this.longest - 1);
  }

  redact(text: string): string {
    return this.pattern === undefined ? text : text.replace(this.pattern, REDACTED);
  }

  /** Redact every string inside a JSON-like value (keys included), returning a new value. */
  redactValue<T>(value: T): T {
    if (this.pattern === undefined) return value;
    return redactDeep(value, (s) => this.redact(s), new WeakMap()) as T;
  }

  /** A redactor for a stream of chunks: secrets split across chunk boundaries are still caught. */
  stream(): RedactingStream {
    return new RedactingStream(this);
  }
}

function redactDeep(value: unknown, redact: (s: string) => string, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Uint8Array) return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(redactDeep(item, redact, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [key, item] of Object.entries(value)) out[redact(key)] = redactDeep(item, redact, seen);
  return out;
}

export class RedactingStream {
  private pending = "";

  constructor(private readonly redactor: Redactor) {}

  /** Returns the text that is safe to emit now; the tail that might start a secret is held back. */
  write(chunk: string): string {
    const text = this.redactor.redact(this.pending + chunk);
    const keep = Math.min(this.redactor.holdBack, text.length);
    // Never hold back inside an already-emitted mask.
    let cut = text.length - keep;
    const maskStart = text.lastIndexOf(REDACTED, cut);
    if (maskStart !== -1 && maskStart + REDACTED.length > cut) cut = maskStart + REDACTED.length;
    this.pending = text.slice(cut);
    return text.slice(0, cut);
  }

  end(): string {
    const rest = this.redactor.redact(this.pending);
    this.pending = "";
    return rest;
  }
}
