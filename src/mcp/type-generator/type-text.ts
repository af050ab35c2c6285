/** Small pieces of TypeScript type text shared by the one-line signature renderers. */

/** A JSON literal on one line: JSON.stringify leaves U+2028/2029 raw, and they would break the "one line". */
export function literal(value: unknown): string {
  const text = JSON.stringify(value) ?? "unknown";
  return text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** A property key, quoted when it is not an identifier. */
export function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
}

/** A union of distinct parts; `never` when there are none. */
export function union(parts: readonly string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}

/** An array of the item type, parenthesised when the item is a union or intersection. */
export function arrayOf(item: string): string {
  return /[|&]/.test(item) ? `(${item})[]` : `${item}[]`;
}
