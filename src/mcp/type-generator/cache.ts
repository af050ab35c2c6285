import { createHash } from "node:crypto";

/** The result of one compile: the TypeScript text, or why the library refused the schema. */
export type CompileOutcome = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Compile outcomes by a hash of exactly what was compiled (names included), so a server whose tools
 * did not change regenerates instantly after a reconnect or list_changed, and a schema the library
 * refuses is not retried every time. Bounded: the least recently used entry goes first.
 */
export class CompiledTypesCache {
  readonly #entries = new Map<string, CompileOutcome>();
  readonly #maxEntries: number;

  constructor(maxEntries = 256) {
    this.#maxEntries = maxEntries;
  }

  static keyOf(document: unknown): string {
    return createHash("sha256").update(JSON.stringify(document)).digest("hex");
  }

  get(key: string): CompileOutcome | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: CompileOutcome): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}
