/** JSON values as they cross every boundary (guest <-> host, MCP <-> host). */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };

/**
 * JSON.parse that never yields a `__proto__`, `constructor` or `prototype` own key, so data from
 * an untrusted side cannot pollute prototypes when the host later spreads or merges it.
 */
export function parseJsonSafe(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) =>
    key === "__proto__" || key === "constructor" || key === "prototype" ? undefined : value,
  );
}
