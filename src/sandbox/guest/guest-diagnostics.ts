import type { GuestDiagnostics, GuestManifest } from "./native.js";

/**
 * The guest's error-path helpers. RUNS INSIDE THE SANDBOX (embedded via Function.prototype.toString,
 * compiled only when a run needs one): no references outside this function.
 *
 * They live in the guest, not on the host, because their messages quote guest text (a mistyped tool
 * name, a key of the result). A host error quoting guest text would pass through the host's secret
 * redactor, and a guest could use what gets masked as an oracle for the secrets; text built here
 * never leaves the guest except as the guest's own output.
 */
export function createGuestDiagnostics(): GuestDiagnostics {
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const stringify = JSON.stringify;
  const hasOwn = Object.prototype.hasOwnProperty;
  const Bytes = Uint8Array;
  const MAX_NOTES = 5;
  const MAX_NODES = 10_000;
  const MAX_LISTED = 20;

  /** Levenshtein distance (two rows); names are short. */
  function distance(a: string, b: string): number {
    let previous: number[] = [];
    for (let j = 0; j <= b.length; j++) previous.push(j);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      for (let j = 1; j <= b.length; j++) {
        const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
        current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost));
      }
      previous = current;
    }
    return previous[b.length] as number;
  }

  /** Two neighbouring letters the wrong way round: one slip (src/util/suggest.ts isSwap). */
  function swapped(a: string, b: string): boolean {
    if (a.length !== b.length) return false;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }

  /** The same rule as src/util/suggest.ts (which guest code cannot import): close, or a prefix. */
  function closest(input: string, candidates: readonly string[]): string[] {
    const needle = input.toLowerCase();
    const scored: { name: string; score: number }[] = [];
    for (const name of candidates) {
      const hay = name.toLowerCase();
      if (hay === needle) return [name];
      // Very long input cannot be a typo of a name; skip the quadratic work.
      if (needle.length > 200) continue;
      const d = swapped(needle, hay) ? 1 : distance(needle, hay);
      const budget = Math.max(1, Math.floor(Math.max(needle.length, hay.length) / 3));
      const prefix = needle.length >= 3 && (hay.indexOf(needle) === 0 || needle.indexOf(hay) === 0);
      if (d <= budget || prefix) scored.push({ name, score: prefix ? Math.min(d, 1) : d });
    }
    scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return scored.slice(0, 3).map((entry) => entry.name);
  }

  function didYouMean(input: string, candidates: readonly string[], prefix = ""): string {
    const matches = closest(input, candidates).map((name) => prefix + name);
    if (matches.length === 0) return "";
    const last = matches[matches.length - 1] as string;
    return `; did you mean ${matches.length === 1 ? last : `${matches.slice(0, -1).join(", ")} or ${last}`}?`;
  }

  /** A name as the guest wrote it, quoted and cut short (it may be anything a script computed). */
  function quoted(name: string): string {
    return stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  }

  function missingMember(title: string, member: string, name: string, known: readonly string[]): string {
    const head = `${title} has no ${member} ${quoted(name)}`;
    const suggestion = didYouMean(name, known);
    if (suggestion !== "") return head + suggestion;
    if (known.length === 0) return `${head} (it has no ${member}s)`;
    const listed = known.slice(0, MAX_LISTED).join(", ") + (known.length > MAX_LISTED ? `, … (${known.length} in all)` : "");
    return `${head} (its ${member}s: ${listed})`;
  }

  function missingFunction(manifest: GuestManifest, module: string, fn: string, functions: readonly string[]): string {
    const label = hasOwn.call(manifest.labels, module) ? manifest.labels[module] : undefined;
    const byName = label?.byName ?? [];
    const known = functions.filter((name) => byName.indexOf(name) === -1);
    return missingMember(label?.title ?? `host:${module}`, label?.member ?? "function", fn, known);
  }

  function requireFailure(manifest: GuestManifest, name: string): { name: string; code: string; message: string } {
    const entries = manifest.unavailable;
    let entry = hasOwn.call(entries, name) ? entries[name] : undefined;
    for (const key of keysOf(entries)) {
      if (entry !== undefined) break;
      if (key.slice(-1) === "*" && name.slice(0, key.length - 1) === key.slice(0, -1)) entry = entries[key];
    }
    if (entry !== undefined) return { name: "ModuleUnavailableError", code: entry.code, message: `host:${name}: ${entry.message}` };
    const loadable = keysOf(manifest.modules);
    const known = loadable.concat(keysOf(entries).filter((key) => key.slice(-1) !== "*"));
    const available = loadable.length === 0 ? "none" : loadable.map((module) => `host:${module}`).join(", ");
    const specifier = stringify(`host:${name}`.length > 100 ? `host:${name.slice(0, 80)}…` : `host:${name}`);
    return { name: "ModuleNotFoundError", code: "MODULE_NOT_FOUND", message: `Unknown host module ${specifier}${didYouMean(name, known, "host:")} (available: ${available})` };
  }

  function thrownValue(thrown: unknown, shown: string): string {
    const what = thrown === null ? "null" : typeof thrown === "object" ? "an object" : `a ${typeof thrown}`;
    return `Uncaught ${shown} (${what} was thrown, not an Error, so there is no line number: \`throw new Error(…)\` gives one)`;
  }

  function encodeConverted(value: unknown, wrapBytes: (bytes: Uint8Array) => unknown): string | undefined {
    const converted = new Map<object, unknown>();
    const convert = (original: object, make: () => unknown): unknown => {
      if (converted.has(original)) return converted.get(original);
      const made = make();
      converted.set(original, made);
      return made;
    };
    return stringify(value, (_key, item: unknown) => {
      if (typeof item !== "object" || item === null) return item;
      if (item instanceof Bytes) return wrapBytes(item);
      if (item instanceof Map) return convert(item, () => mapData(item));
      if (item instanceof Set) return convert(item, () => Array.from(item));
      if (item instanceof Error) return convert(item, () => ({ name: String(item.name), message: String(item.message) }));
      return item;
    });
  }

  /** A Map with only string keys as an object (null prototype: "__proto__" stays a key), else [key, value] pairs. */
  function mapData(map: Map<unknown, unknown>): unknown {
    const entries = Array.from(map);
    for (const [key] of entries) if (typeof key !== "string") return entries;
    const object = Object.create(null) as Record<string, unknown>;
    for (const [key, entry] of entries) object[key as string] = entry;
    return object;
  }

  function childPath(path: string, key: string | number): string {
    if (typeof key === "number") return `${path}[${key}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${stringify(key)}]`;
  }

  function kindOf(value: unknown): string {
    return typeof value === "function" ? "a function" : "a Symbol";
  }

  interface Ancestor {
    readonly value: unknown;
    readonly path: string;
  }

  interface Visit {
    /** Called for each value reached (after toJSON), with its path; return false to stop walking. */
    (value: unknown, path: string, inArray: boolean, ancestors: readonly Ancestor[]): boolean | "skip";
  }

  /**
   * Walks a value the way JSON.stringify with the result replacer does: toJSON first, a Map as its
   * entries, a Set as its items, an Error and bytes as leaves. Bounded, so a huge result costs little.
   * Getters run again here; this is only ever done on the error or note path.
   */
  function walk(root: unknown, visit: Visit): void {
    let nodes = 0;
    const go = (input: unknown, key: string | number, path: string, inArray: boolean, ancestors: Ancestor[]): boolean => {
      if (++nodes > MAX_NODES) return false;
      let value = input;
      if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
        value = (value as { toJSON(key: string): unknown }).toJSON(String(key));
      }
      const verdict = visit(value, path, inArray, ancestors);
      if (verdict === false) return false;
      if (verdict === "skip" || typeof value !== "object" || value === null || value instanceof Bytes || value instanceof Error) return true;
      const inner = ancestors.concat([{ value, path }]);
      if (value instanceof Map) {
        let index = 0;
        const allStrings = Array.from(value.keys()).every((k) => typeof k === "string");
        for (const [k, v] of value) {
          const next = allStrings ? childPath(path, k as string) : `${path}[${index}][1]`;
          if (!go(v, allStrings ? (k as string) : 1, next, false, inner)) return false;
          index++;
        }
        return true;
      }
      const items = value instanceof Set ? Array.from(value) : value;
      if (isArray(items)) {
        for (let i = 0; i < items.length; i++) if (!go(items[i], i, childPath(path, i), true, inner)) return false;
        return true;
      }
      for (const k of keysOf(items)) if (!go((items as Record<string, unknown>)[k], k, childPath(path, k), false, inner)) return false;
      return true;
    };
    go(root, "", "result", false, []);
  }

  function resultNotes(value: unknown): string[] {
    const notes: string[] = [];
    let more = 0;
    const add = (note: string): void => {
      if (notes.length < MAX_NOTES) notes.push(note);
      else more++;
    };
    walk(value, (item, path, inArray) => {
      if (item instanceof Map) {
        const allStrings = Array.from(item.keys()).every((k) => typeof k === "string");
        add(`${path} was a Map: returned as ${allStrings ? "an object of its entries" : "[key, value] pairs (not all its keys are strings)"}`);
      } else if (item instanceof Set) {
        add(`${path} was a Set: returned as an array`);
      } else if (item instanceof Error) {
        add(`${path} was an Error: returned as {name, message}`);
      } else if ((typeof item === "function" || typeof item === "symbol") && path !== "result") {
        add(`${path} is ${kindOf(item)}, which is not data: ${inArray ? "returned as null" : "left out"}`);
      }
      return true;
    });
    if (more > 0) notes.push(`… and ${more} more like these`);
    return notes;
  }

  function unserializable(value: unknown): string | undefined {
    let found: string | undefined;
    walk(value, (item, path, _inArray, ancestors) => {
      if (typeof item === "bigint") {
        found = `${path} is a BigInt (${String(item)}n), which JSON cannot carry: return String(value) instead (or Number(value) when it is small enough)`;
        return false;
      }
      const loop = typeof item === "object" && item !== null ? ancestors.find((ancestor) => ancestor.value === item) : undefined;
      if (loop !== undefined) {
        found = `${path} refers back to ${loop.path} (a cycle), which JSON cannot carry: return a copy without that reference`;
        return false;
      }
      return true;
    });
    return found;
  }

  function notData(value: unknown): string | undefined {
    if (typeof value !== "function" && typeof value !== "symbol") return undefined;
    return `the script returned ${kindOf(value)}, which is not data, so it returned nothing (return the data itself, e.g. \`return await f()\`)`;
  }

  function describeResult(value: unknown, failure: unknown, maxResultChars: number, wrapBytes: (bytes: Uint8Array) => unknown): string {
    const unserializableEnvelope = (error: unknown): string => {
      const name = error instanceof Error ? String(error.name) : "Error";
      let message = error instanceof Error ? String(error.message) : String(error);
      // Out of memory or stack: walking the value again would fail the same way.
      if (name !== "InternalError") message = quietly(() => unserializable(value)) ?? message;
      return stringify({ ok: false, kind: "unserializable", error: { name, message } });
    };
    if (failure !== undefined) return unserializableEnvelope(failure);
    let text: string | undefined;
    try {
      text = encodeConverted(value, wrapBytes);
    } catch (error) {
      return unserializableEnvelope(error);
    }
    if (text === undefined) {
      const note = quietly(() => notData(value));
      return note === undefined ? '{"ok":true}' : `{"ok":true,"notes":${stringify([note])}}`;
    }
    if (text.length > maxResultChars) return stringify({ ok: false, kind: "too_large", chars: text.length });
    // Notes go after the value: the host counts everything after `{"ok":true,"value":` as the result.
    const notes = quietly(() => resultNotes(value)) ?? [];
    return notes.length === 0 ? `{"ok":true,"value":${text}}` : `{"ok":true,"value":${text},"notes":${stringify(notes)}}`;
  }

  /** A diagnosis is a nicety: if working it out fails (a hostile getter, exhaustion), there is none. */
  function quietly<T>(work: () => T): T | undefined {
    try {
      return work();
    } catch {
      return undefined;
    }
  }

  return { didYouMean, missingMember, missingFunction, requireFailure, thrownValue, encodeConverted, describeResult, resultNotes, unserializable, notData };
}
