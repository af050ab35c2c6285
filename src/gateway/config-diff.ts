import type { ConfigFile } from "../config/config-file.js";
import type { ServerChange } from "../mcp/service/index.js";

/**
 * What a config.json edit does to the gateway's servers. A changed server is listed once, under
 * `changed`, and is applied as removed + added: its connection is drained and closed, its approval is
 * checked again before the new definition spawns (a changed command needs a new approval, as at start).
 */
export interface ServersDiff extends ServerChange {
  readonly unchanged: readonly string[];
}

/** Validated `mcpServers` entries, compared by value (key order does not matter, array order does). */
export type ServerEntries = Readonly<Record<string, object>>;

export function diffServers(before: ServerEntries, after: ServerEntries): ServersDiff {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  for (const name of Object.keys(before).sort()) {
    if (!Object.hasOwn(after, name)) removed.push(name);
    else if (canonical(before[name]) === canonical(after[name])) unchanged.push(name);
    else changed.push(name);
  }
  for (const name of Object.keys(after).sort()) if (!Object.hasOwn(before, name)) added.push(name);
  return { added, removed, changed, unchanged };
}

export function isEmptyDiff(diff: ServersDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

/**
 * The entries to run with after the edit: an unchanged server keeps its entry object, so the
 * per-call approval re-check (which trusts a pass for the very same entry object) keeps holding and
 * nothing about it is reconnected.
 */
export function mergeEntries<E extends object>(before: Readonly<Record<string, E>>, after: Readonly<Record<string, E>>, diff: ServersDiff): Record<string, E> {
  const kept = new Set(diff.unchanged);
  return Object.fromEntries(Object.entries(after).map(([name, entry]) => [name, kept.has(name) ? (before[name] as E) : entry]));
}

/** Sections (and `gateway` / `plugins` keys) applied only at start: listen policy, auth, sessions, engine, plugins. */
const LIVE_SECTIONS = new Set(["mcpServers", "$schema"]);
const BY_KEY = new Set(["gateway", "plugins"]);

/**
 * Where `next` differs from the configuration the gateway started with, outside `mcpServers`: each
 * is reported as needing a restart (`gateway.oauth`, `plugins.mcp`, `engine`…), never silently ignored.
 */
export function restartNeeded(running: ConfigFile, next: ConfigFile): string[] {
  const paths: string[] = [];
  const sections = new Set([...Object.keys(running), ...Object.keys(next)]);
  for (const section of [...sections].sort()) {
    if (LIVE_SECTIONS.has(section)) continue;
    const a = (running as Record<string, unknown>)[section];
    const b = (next as Record<string, unknown>)[section];
    if (canonical(a) === canonical(b)) continue;
    if (!BY_KEY.has(section) || !isRecord(a ?? {}) || !isRecord(b ?? {})) {
      paths.push(section);
      continue;
    }
    const left = (a ?? {}) as Record<string, unknown>;
    const right = (b ?? {}) as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
      if (canonical(left[key]) !== canonical(right[key])) paths.push(`${section}.${key}`);
    }
  }
  return paths;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON with object keys sorted, so two equal values written in another key order compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isRecord(inner) ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, inner[key]])) : inner,
  ) ?? "undefined";
}
