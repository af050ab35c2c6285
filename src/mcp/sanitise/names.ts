import { McpvmError } from "../../util/errors.js";
import { isReservedJsName } from "./reserved-names.js";

/**
 * MCP tool names are free text ("get-weather", "api.v2.search", "検索"); guest code calls them as
 * `gh.<name>(…)`, so each becomes a plain ASCII identifier. `$` is never produced, which keeps
 * every generated name clear of module helpers such as `$batch`.
 */
const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;
const COMBINING_MARK = /\p{M}/gu;

type Piece = { kind: "char"; value: string } | { kind: "separator" } | { kind: "codepoint"; hex: string };

function pieces(name: string): Piece[] {
  // NFKD then dropping combining marks turns "é" into "e" and "ﬁ" into "fi" the same way every time.
  const folded = name.normalize("NFKD").replace(COMBINING_MARK, "");
  const out: Piece[] = [];
  for (const char of folded) {
    const point = char.codePointAt(0) ?? 0;
    if (IDENTIFIER_CHAR.test(char)) out.push({ kind: "char", value: char });
    else if (point > 0x7f) out.push({ kind: "codepoint", hex: point.toString(16).padStart(4, "0") });
    else out.push({ kind: "separator" });
  }
  return out;
}

function join(parts: readonly Piece[]): string {
  let out = "";
  let afterCodepoint = false;
  for (const part of parts) {
    if (part.kind === "separator") {
      if (!out.endsWith("_")) out += "_";
      afterCodepoint = false;
    } else if (part.kind === "codepoint") {
      if (out !== "" && !out.endsWith("_")) out += "_";
      out += `u${part.hex}`;
      afterCodepoint = true;
    } else {
      if (afterCodepoint && part.value !== "_") out += "_";
      out += part.value;
      afterCodepoint = false;
    }
  }
  return out;
}

/**
 * One tool name -> a valid, non-reserved JS identifier, independent of any other name:
 * runs of other ASCII characters become one `_`, non-ASCII letters lose accents or become
 * `u<hex>`, a leading digit gets a `_` prefix, reserved names get a `_` suffix.
 */
export function sanitizeToolName(name: string): string {
  let out = join(pieces(name));
  if (out === "") return "_";
  if (/^[0-9]/.test(out)) out = `_${out}`;
  if (isReservedJsName(out)) out = `${out}_`;
  return out;
}

export interface ToolNameAssignment {
  readonly original: string;
  readonly jsName: string;
}

export interface ToolNameCollision {
  /** The identifier several tools sanitised to. */
  readonly base: string;
  /** Every tool of the group with the name it got, sorted by original name. */
  readonly assignments: readonly ToolNameAssignment[];
}

export interface ToolNameMap {
  /** jsName -> original MCP tool name: how a guest call is routed. */
  readonly toOriginal: ReadonlyMap<string, string>;
  /** original MCP tool name -> jsName. */
  readonly toJs: ReadonlyMap<string, string>;
  /** Tools whose jsName differs from their original name, sorted by original name. */
  readonly renamed: readonly ToolNameAssignment[];
  readonly collisions: readonly ToolNameCollision[];
  /** Names the server listed more than once (kept once). */
  readonly duplicates: readonly string[];
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sanitise a server's whole tool list. A name that is already a valid identifier keeps it; the
 * other members of a collision group get `_2`, `_3`, … in the order of their original names, never
 * taking a name another tool sanitises to. The result does not depend on the listing order.
 */
export function assignToolNames(originalNames: readonly string[]): ToolNameMap {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const name of originalNames) (seen.has(name) ? duplicates : seen).add(name);
  const originals = [...seen].sort(compareCodeUnits);

  const groups = new Map<string, string[]>();
  for (const original of originals) {
    const base = sanitizeToolName(original);
    const group = groups.get(base);
    if (group) group.push(original);
    else groups.set(base, [original]);
  }

  const taken = new Set(groups.keys());
  const toJs = new Map<string, string>();
  const collisions: ToolNameCollision[] = [];
  for (const base of [...groups.keys()].sort(compareCodeUnits)) {
    const members = groups.get(base) ?? [];
    const owner = members.includes(base) ? base : members[0];
    const assignments: ToolNameAssignment[] = [];
    let suffix = 2;
    for (const original of members) {
      let jsName = base;
      if (original !== owner) {
        while (taken.has(`${base}_${suffix}`)) suffix += 1;
        jsName = `${base}_${suffix}`;
        taken.add(jsName);
      }
      toJs.set(original, jsName);
      assignments.push({ original, jsName });
    }
    if (members.length > 1) collisions.push({ base, assignments });
  }

  const toOriginal = new Map<string, string>();
  const renamed: ToolNameAssignment[] = [];
  for (const original of originals) {
    const jsName = toJs.get(original) ?? original;
    toOriginal.set(jsName, original);
    if (jsName !== original) renamed.push({ original, jsName });
  }
  return { toOriginal, toJs, renamed, collisions, duplicates: [...duplicates].sort(compareCodeUnits) };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True for an ASCII identifier that may be written after a dot or as a binding name. */
export function isSafeIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !isReservedJsName(name);
}

/** A property key as written in a declaration: `github` or `"my-server"`. */
export function formatPropertyKey(key: string): string {
  return isSafeIdentifier(key) ? key : JSON.stringify(key);
}

/** A property read as written in guest code: `tools.github` or `tools["my-server"]`. */
export function formatPropertyAccess(objectExpression: string, key: string): string {
  return isSafeIdentifier(key) ? `${objectExpression}.${key}` : `${objectExpression}[${JSON.stringify(key)}]`;
}

export class McpNameError extends McpvmError<"MCP_INVALID_SERVER_NAME"> {}

const SERVER_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * The key of a server on the guest's `tools` global. It is the configured name itself, so the
 * guest writes the name it sees in the config (`tools["my-server"]`); config validation already
 * keeps `constructor`, `prototype` and `then` out, which this re-checks.
 */
export function serverToolsKey(serverName: string): string {
  if (!SERVER_NAME.test(serverName) || isReservedJsName(serverName)) {
    throw new McpNameError(
      "MCP_INVALID_SERVER_NAME",
      `"${serverName}" cannot be a key of the tools global: server names are lowercase letters, digits and dashes, start with a letter, and are not constructor, prototype or then`,
      { data: { serverName } },
    );
  }
  return serverName;
}
