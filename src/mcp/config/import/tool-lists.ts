/**
 * Per-server tool lists, under the names each client uses, mapped to mcpvm's filters. A list the
 * user wrote to switch tools off must never be lost on the way in: a dropped deny list makes the
 * tool callable again. So every deny list is carried over, and an entry whose list cannot be read
 * is skipped rather than imported without it.
 *
 * | mcpvm      | also read from                                              |
 * |------------|-------------------------------------------------------------|
 * | allowTools | allowedTools (command-array configs), includeTools (Gemini CLI) |
 * | denyTools  | disabledTools (Windsurf, Kiro, Roo Code), excludeTools (Gemini CLI) |
 */
export const ALLOW_FIELDS: readonly string[] = ["allowTools", "allowedTools", "includeTools"];
export const DENY_FIELDS: readonly string[] = ["denyTools", "disabledTools", "excludeTools"];

export type ToolLists =
  | { readonly ok: true; readonly allowTools?: string[]; readonly denyTools?: string[]; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly reason: string };

function readList(raw: Readonly<Record<string, unknown>>, field: string): { ok: true; list: string[] | undefined } | { ok: false; reason: string } {
  const value = raw[field];
  if (value === undefined) return { ok: true, list: undefined };
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item !== "")) {
    return { ok: false, reason: `"${field}" must be a list of tool names; fix it in the file so the tools it names stay filtered` };
  }
  return { ok: true, list: [...new Set(value as string[])] };
}

function readLists(raw: Readonly<Record<string, unknown>>, fields: readonly string[]): { ok: true; lists: { field: string; list: string[] }[] } | { ok: false; reason: string } {
  const lists: { field: string; list: string[] }[] = [];
  for (const field of fields) {
    const read = readList(raw, field);
    if (!read.ok) return read;
    if (read.list !== undefined) lists.push({ field, list: read.list });
  }
  return { ok: true, lists };
}

/** The entry's allow and deny lists in mcpvm's terms. */
export function toolListsOf(raw: Readonly<Record<string, unknown>>): ToolLists {
  const allow = readLists(raw, ALLOW_FIELDS);
  if (!allow.ok) return allow;
  const deny = readLists(raw, DENY_FIELDS);
  if (!deny.ok) return deny;
  const warnings: string[] = [];

  let allowTools: string[] | undefined;
  for (const { list } of allow.lists) allowTools = allowTools === undefined ? list : allowTools.filter((name) => list.includes(name));
  if (allow.lists.length > 1) {
    warnings.push(`${allow.lists.map(({ field }) => `"${field}"`).join(" and ")} are both set; only tools named in all of them are allowed (allowTools)`);
  }
  // Several deny lists all mean "never these": their union keeps every one of them hidden.
  const denyTools = deny.lists.length === 0 ? undefined : [...new Set(deny.lists.flatMap(({ list }) => list))];
  return { ok: true, ...(allowTools === undefined ? {} : { allowTools }), ...(denyTools === undefined ? {} : { denyTools }), warnings };
}
