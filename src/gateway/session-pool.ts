/**
 * The HTTP gateway's 2025-era sessions (one server instance each), bounded: at most
 * `perClient` per client (the caller's key: token name and address) and `total` overall, the least recently used evicted first, and
 * sessions idle longer than `idleMs` closed (unless a client holds a notification stream open on
 * it). Without this, bare `initialize` requests grow memory without end. An evicted or expired
 * client gets "Unknown or expired session; initialize again", which MCP clients handle.
 */
export interface SessionLimits {
  readonly perClient: number;
  readonly total: number;
  readonly idleMs: number;
}

interface Entry<T> {
  readonly value: T;
  readonly client: string;
  lastUsed: number;
  openStreams: number;
}

export class SessionPool<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly limits: SessionLimits,
    /** Closes an evicted or expired session (its transport); the pool has already forgotten it. */
    private readonly close: (id: string, value: T, why: "evicted" | "idle") => void,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  values(): T[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  /** The session, marked as used now. */
  use(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (entry !== undefined) entry.lastUsed = this.now();
    return entry?.value;
  }

  /** Adds a session, first evicting the least recently used ones over the client's or the total cap. */
  add(id: string, client: string, value: T): void {
    const ofClient = [...this.entries.entries()].filter(([, e]) => e.client === client);
    for (const [oldId] of leastRecentFirst(ofClient).slice(0, Math.max(0, ofClient.length - this.limits.perClient + 1))) this.evict(oldId, "evicted");
    const all = [...this.entries.entries()];
    for (const [oldId] of leastRecentFirst(all).slice(0, Math.max(0, all.length - this.limits.total + 1))) this.evict(oldId, "evicted");
    this.entries.set(id, { value, client, lastUsed: this.now(), openStreams: 0 });
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }

  /** A GET notification stream opened on the session: it is in use while the stream lasts. */
  streamOpened(id: string): void {
    const entry = this.entries.get(id);
    if (entry !== undefined) entry.openStreams += 1;
  }

  streamClosed(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.openStreams = Math.max(0, entry.openStreams - 1);
    entry.lastUsed = this.now();
  }

  /** Closes sessions nobody used for idleMs (and with no open stream); returns their ids. */
  expireIdle(): string[] {
    const cutoff = this.now() - this.limits.idleMs;
    const idle = [...this.entries.entries()].filter(([, e]) => e.openStreams === 0 && e.lastUsed <= cutoff).map(([id]) => id);
    for (const id of idle) this.evict(id, "idle");
    return idle;
  }

  private evict(id: string, why: "evicted" | "idle"): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    this.close(id, entry.value, why);
  }
}

function leastRecentFirst<T>(entries: Array<[string, Entry<T>]>): Array<[string, Entry<T>]> {
  return [...entries].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
}
