import { transformGuestSource, type TransformResult } from "./transform.js";

/** Scripts kept; a REPL, an agent or a gateway client often runs the same few again. */
export const TRANSFORM_CACHE_CAPACITY = 64;
/** Longer scripts are transformed every time: their parse is small beside their run, and they would crowd the cache. */
const MAX_CACHED_CHARS = 16 * 1024;

const recent = new Map<string, Extract<TransformResult, { ok: true }>>();

/**
 * transformGuestSource, remembered for the last scripts that transformed cleanly. The transform is a
 * pure function of the text and its result is immutable data (strings and a number), so a run of
 * the same script again shares it; parsing with Babel was a tenth of a warm trivial run's host time.
 */
export function transformGuestSourceCached(code: string): TransformResult {
  const cached = recent.get(code);
  if (cached !== undefined) {
    // Most recently used last, so the oldest goes first.
    recent.delete(code);
    recent.set(code, cached);
    return cached;
  }
  const result = transformGuestSource(code);
  if (!result.ok || code.length > MAX_CACHED_CHARS) return result;
  if (recent.size >= TRANSFORM_CACHE_CAPACITY) recent.delete(recent.keys().next().value as string);
  const kept = Object.freeze({ ok: true as const, source: Object.freeze({ ...result.source }) });
  recent.set(code, kept);
  return kept;
}
