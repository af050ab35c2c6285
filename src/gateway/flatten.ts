import { createHash } from "node:crypto";

/** Many clients (Claude among them) refuse tool names longer than 64 characters. */
export const MAX_FLAT_NAME_LENGTH = 64;

/** One tool of a server, as a toolset names it. */
export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

export interface FlatNameCollision {
  /** The name every member would have had. */
  readonly name: string;
  /** `server.tool` references that wanted it, in the deterministic order used to assign suffixes. */
  readonly refs: readonly string[];
  /** What each got, in the same order. */
  readonly assigned: readonly string[];
}

export interface FlatNameAssignment {
  /** `server.tool` -> flattened name. */
  readonly byRef: ReadonlyMap<string, string>;
  /** flattened name -> reference. */
  readonly byName: ReadonlyMap<string, ToolRef>;
  readonly collisions: readonly FlatNameCollision[];
}

export function refKey(ref: ToolRef): string {
  return `${ref.server}.${ref.tool}`;
}

/**
 * `git.status` -> `git_status`. ASCII characters other than letters, digits and `_` become `_`,
 * other characters become `u<hex code point>` (so `ünï` and `uni` stay apart), and a name longer
 * than the limit keeps a prefix plus a hash of the whole reference. The same input always gives
 * the same name.
 */
export function flattenToolName(ref: ToolRef): string {
  let flat = "";
  for (const char of `${ref.server}.${ref.tool}`) {
    const code = char.codePointAt(0) ?? 0;
    if (/[A-Za-z0-9_]/.test(char)) flat += char;
    else if (code < 0x80) flat += "_";
    else flat += `u${code.toString(16)}`;
  }
  if (flat.length <= MAX_FLAT_NAME_LENGTH) return flat;
  const digest = createHash("sha256").update(refKey(ref)).digest("hex").slice(0, 8);
  return `${flat.slice(0, MAX_FLAT_NAME_LENGTH - 9)}_${digest}`;
}

function withSuffix(base: string, n: number): string {
  const suffix = `_${n}`;
  return base.length + suffix.length <= MAX_FLAT_NAME_LENGTH ? base + suffix : base.slice(0, MAX_FLAT_NAME_LENGTH - suffix.length) + suffix;
}

/**
 * Flattened names for a set of tools. Collisions (`my-tool` and `my_tool` both give `s_my_tool`,
 * or a gateway tool's own name) are resolved by sorting the references and giving the second and
 * later ones `_2`, `_3`, …; each collision is reported so the person sees which tool got which name.
 */
export function assignFlatNames(refs: readonly ToolRef[], reserved: Iterable<string> = []): FlatNameAssignment {
  const taken = new Set(reserved);
  const reservedNames = new Set(taken);
  const groups = new Map<string, ToolRef[]>();
  const unique = new Map(refs.map((r) => [refKey(r), r]));
  const sorted = [...unique.values()].sort((a, b) => (refKey(a) < refKey(b) ? -1 : refKey(a) > refKey(b) ? 1 : 0));
  for (const ref of sorted) {
    const base = flattenToolName(ref);
    groups.set(base, [...(groups.get(base) ?? []), ref]);
  }
  const byRef = new Map<string, string>();
  const byName = new Map<string, ToolRef>();
  const collisions: FlatNameCollision[] = [];
  // Names that need no suffix first, so a suffixed name never steals another tool's plain name.
  for (const [base, members] of groups) {
    const first = members[0];
    if (first !== undefined && !taken.has(base)) {
      taken.add(base);
      byRef.set(refKey(first), base);
      byName.set(base, first);
    }
  }
  for (const [base, members] of groups) {
    if (members.length === 1 && !reservedNames.has(base)) continue;
    const assigned: string[] = [];
    for (const ref of members) {
      let name = byRef.get(refKey(ref));
      for (let n = 2; name === undefined; n++) {
        const candidate = withSuffix(base, n);
        if (!taken.has(candidate)) name = candidate;
      }
      taken.add(name);
      byRef.set(refKey(ref), name);
      byName.set(name, ref);
      assigned.push(name);
    }
    collisions.push({ name: base, refs: members.map(refKey), assigned });
  }
  return { byRef, byName, collisions };
}

/** `server.tool` -> {server, tool}; server names never contain dots, tool names may. */
export function parseToolRef(text: string): ToolRef | undefined {
  const dot = text.indexOf(".");
  if (dot <= 0 || dot === text.length - 1) return undefined;
  return { server: text.slice(0, dot), tool: text.slice(dot + 1) };
}
