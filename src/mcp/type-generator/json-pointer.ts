/** RFC 6901 JSON Pointers inside one in-memory document; nothing outside the document is ever looked at. */

export function encodePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointerFromSegments(segments: readonly string[]): string {
  return segments.map((segment) => `/${encodePointerSegment(segment)}`).join("");
}

/** The segments of a local `$ref` ("#", "#/a/b"), or undefined when the ref leaves the document. */
export function localRefSegments(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    // A stray "%" is not valid percent-encoding; read the fragment as written.
    fragment = ref.slice(1);
  }
  if (fragment === "") return [];
  // "#foo" is a plain-name anchor, which needs $id/$anchor bookkeeping we do not do.
  if (!fragment.startsWith("/")) return undefined;
  return fragment
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Follow own properties only, so `__proto__` or `constructor` segments never reach a prototype. */
export function resolveSegments(document: unknown, segments: readonly string[]): unknown {
  let node: unknown = document;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Assign without ever invoking the `__proto__` setter, whatever the key. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
