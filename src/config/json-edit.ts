import { isDeepStrictEqual } from "node:util";
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from "jsonc-parser";

/**
 * A file a person keeps by hand (config.json) rewritten as the few changes a command made, not
 * re-serialised whole: their indentation, line endings, key order and untouched sections stay as they
 * wrote them, so `mcpvm mcp add` does not turn a 4-space or tab-indented file into 2 spaces or move
 * their keys, and a diff of the file shows only what the command changed. jsonc-parser's `modify`
 * re-formats the neighbouring member too, so the edits are made here on its parse tree.
 */

/** How a text is laid out: one level of indentation ("" for a text on one line: written compact) and its line ending. */
export interface JsonLayout {
  readonly indent: string;
  readonly eol: "\n" | "\r\n";
}

/** The indentation and line ending the text already uses; two spaces and LF for a text that shows none. */
export function detectLayout(text: string): JsonLayout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  if (text.trim() !== "" && !text.trim().includes("\n")) return { indent: "", eol };
  // The first indented line of a pretty-printed object is a key one level down, so its indent is one level.
  return { indent: /^[ \t]+(?=\S)/m.exec(text)?.[0] ?? "  ", eol };
}

interface Change {
  readonly path: JSONPath;
  /** undefined removes the member. */
  readonly value: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The smallest member-level changes from one value to the other: objects compared key by key, anything else replaced whole. */
export function changesBetween(before: unknown, after: unknown, path: JSONPath = []): Change[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (!isPlainObject(before) || !isPlainObject(after)) return [{ path, value: after }];
  const changes: Change[] = [];
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) changes.push({ path: [...path, key], value: undefined });
  for (const key of Object.keys(after)) changes.push(...changesBetween(before[key], after[key], [...path, key]));
  return changes;
}

/**
 * `text` (which holds the object `before`) with the changes to `after` made in place; everything the changes do
 * not touch stays byte for byte. Throws when that is not possible or would not read back as `after`.
 */
export function editJsonTextInPlace(text: string, before: Record<string, unknown>, after: Record<string, unknown>): string {
  const layout = detectLayout(text);
  let edited = text;
  for (const change of changesBetween(before, after)) edited = applyChange(edited, change, layout);
  if (!isDeepStrictEqual(JSON.parse(edited.replace(/^\uFEFF/, "")), JSON.parse(JSON.stringify(after)))) throw new Error("the edited text does not read back as the new value");
  return edited;
}

/** The text for `after`: edited in place where it can be, else the whole value in the text's own layout. */
export function editJsonText(text: string, before: unknown, after: unknown): string {
  const layout = detectLayout(text);
  if (isPlainObject(before) && isPlainObject(after) && text.trim() !== "") {
    try {
      return editJsonTextInPlace(text, before, after);
    } catch {
      // Not expected: the text parsed as `before` a moment ago. Written whole below.
    }
  }
  return `${serialise(after, layout.indent === "" ? { indent: "  ", eol: layout.eol } : layout, "")}${layout.eol}`;
}

function applyChange(text: string, change: Change, layout: JsonLayout): string {
  const root = parseTree(text);
  if (root === undefined) throw new Error("not JSON");
  const target = findNodeAtLocation(root, [...change.path]);
  if (change.value === undefined) return target === undefined ? text : removeMember(text, target);
  if (target !== undefined) return splice(text, target.offset, target.offset + target.length, serialise(change.value, layout, lineIndent(text, target.parent?.offset ?? target.offset)));
  const key = change.path.at(-1);
  const parent = findNodeAtLocation(root, [...change.path.slice(0, -1)]);
  if (parent?.type !== "object" || typeof key !== "string") throw new Error("no object to add to");
  return addMember(text, parent, key, change.value, layout);
}

function removeMember(text: string, value: Node): string {
  const property = value.parent;
  const object = property?.parent;
  if (property?.type !== "property" || object === undefined) throw new Error("not a member");
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const next = siblings[index + 1];
  // The member and its comma, up to where the next member starts (which then sits where this one did).
  if (next !== undefined) return splice(text, property.offset, next.offset, "");
  const previous = siblings[index - 1];
  // The last member: from the end of the one before it (its comma goes too).
  if (previous !== undefined) return splice(text, previous.offset + previous.length, property.offset + property.length, "");
  return splice(text, object.offset + 1, object.offset + object.length - 1, "");
}

function addMember(text: string, object: Node, key: string, value: unknown, layout: JsonLayout): string {
  const compact = layout.indent === "";
  const last = object.children?.at(-1);
  if (last !== undefined) {
    const end = last.offset + last.length;
    const indent = lineIndent(text, last.offset);
    const lead = compact ? "," : `,${layout.eol}${indent}`;
    return splice(text, end, end, `${lead}${JSON.stringify(key)}:${compact ? "" : " "}${serialise(value, layout, indent)}`);
  }
  const outer = lineIndent(text, object.offset);
  const indent = outer + layout.indent;
  const member = `${JSON.stringify(key)}:${compact ? "" : " "}${serialise(value, layout, indent)}`;
  return splice(text, object.offset + 1, object.offset + object.length - 1, compact ? member : `${layout.eol}${indent}${member}${layout.eol}${outer}`);
}

/** The whitespace that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? "";
}

function splice(text: string, from: number, to: number, insert: string): string {
  return `${text.slice(0, from)}${insert}${text.slice(to)}`;
}

/** The value as JSON in the layout, its inner lines starting at `indent` (compact on one line when the layout is). */
function serialise(value: unknown, layout: JsonLayout, indent: string): string {
  if (layout.indent === "") return JSON.stringify(value);
  return JSON.stringify(value, null, layout.indent).replaceAll("\n", `${layout.eol}${indent}`);
}
