import { MAX_SERVER_NAME_LENGTH, RESERVED_SERVER_NAMES } from "../validate.js";

export interface ServerRename {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

/**
 * A name from another tool's config ("My Server", "GitHub", "mcp-server-git") -> a valid mcpvm
 * server name, with the reasons it changed. Pure and order-independent; uniqueness is handled by
 * assignServerNames.
 */
export function normaliseServerName(original: string, nativePluginNames: readonly string[]): { name: string; reasons: string[] } {
  const reasons: string[] = [];
  let name = splitCamelCase(original)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (name !== original) reasons.push("server names are lowercase letters, digits and dashes");
  if (name.startsWith("mcp")) {
    while (name.startsWith("mcp")) name = name.slice(3).replace(/^-+/, "");
    reasons.push('the "mcp" prefix is reserved');
  }
  if (name === "") name = "server";
  if (/^[0-9]/.test(name)) {
    name = `server-${name}`;
    reasons.push("server names start with a letter");
  }
  if (name.length > MAX_SERVER_NAME_LENGTH) {
    name = name.slice(0, MAX_SERVER_NAME_LENGTH).replace(/-+$/, "");
    reasons.push(`server names are at most ${MAX_SERVER_NAME_LENGTH} characters`);
  }
  if (nativePluginNames.includes(name) || RESERVED_SERVER_NAMES.includes(name)) {
    reasons.push(nativePluginNames.includes(name) ? `"${name}" is the name of a native plugin` : `"${name}" is reserved`);
    name = `${name}-server`;
  }
  return { name, reasons };
}

/**
 * camelCase words become dashed ("myLocalServer" -> "my-Local-Server", "myAPIServer" ->
 * "my-API-Server"), so they read as the words they are once lowercased. A word that starts with a
 * capital is left whole: "GitHub" and "OpenAI" are names, not phrases.
 */
function splitCamelCase(original: string): string {
  return original.replace(/(?<![\p{L}\p{N}])\p{Ll}[\p{L}\p{N}]*/gu, (word) => word.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1-$2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1-$2"));
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Names for every server of one imported file. A name that is already valid keeps it ("a" stays
 * "a" beside "A"); the others follow in sorted order, so when two normalise to the same name the
 * one that sorts first keeps it and the next gets "-2". The result never depends on file order.
 */
export function assignServerNames(originals: readonly string[], nativePluginNames: readonly string[]): { names: Map<string, string>; renames: ServerRename[] } {
  const names = new Map<string, string>();
  const owners = new Map<string, string>();
  const renames: ServerRename[] = [];
  const keepsItsName = (original: string): boolean => normaliseServerName(original, nativePluginNames).name === original;
  const ordered = [...originals].sort((a, b) => Number(keepsItsName(b)) - Number(keepsItsName(a)) || byCodeUnits(a, b));
  for (const original of ordered) {
    const { name: base, reasons } = normaliseServerName(original, nativePluginNames);
    let name = base;
    for (let suffix = 2; owners.has(name); suffix += 1) name = `${base}-${suffix}`;
    if (name !== base) reasons.push(`"${base}" is already used by "${owners.get(base) ?? base}" in this file`);
    owners.set(name, original);
    names.set(original, name);
    if (name !== original) renames.push({ from: original, to: name, reason: reasons.join("; ") });
  }
  return { names, renames };
}
