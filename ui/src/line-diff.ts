/** One row of a side-by-side diff: a line on the left (approved), the right (new), or both. */
export interface DiffRow {
  readonly left: string | undefined;
  readonly right: string | undefined;
  readonly kind: "same" | "removed" | "added" | "changed";
}

/**
 * Side-by-side rows of two texts by their longest common subsequence of lines; a removed line
 * followed by an added one is shown as one changed row. Tool definitions are small (tens to a few
 * hundred lines), so the quadratic table is fine; past MAX_LINES each side is cut.
 */
export const MAX_LINES = 2_000;

export function sideBySide(before: string, after: string): DiffRow[] {
  const lines = (text: string): string[] => (text === "" ? [] : text.split("\n").slice(0, MAX_LINES));
  const a = lines(before);
  const b = lines(after);
  const n = a.length;
  const m = b.length;
  const table: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as Uint32Array;
    const next = table[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--) row[j] = a[i] === b[j] ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
  }
  const ops: Array<{ op: "same" | "del" | "add"; text: string }> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ op: "same", text: a[i] as string });
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) ops.push({ op: "del", text: a[i++] as string });
    else ops.push({ op: "add", text: b[j++] as string });
  }
  while (i < n) ops.push({ op: "del", text: a[i++] as string });
  while (j < m) ops.push({ op: "add", text: b[j++] as string });

  const rows: DiffRow[] = [];
  for (let k = 0; k < ops.length; ) {
    const op = ops[k] as { op: string; text: string };
    if (op.op === "same") {
      rows.push({ left: op.text, right: op.text, kind: "same" });
      k++;
      continue;
    }
    const dels: string[] = [];
    const adds: string[] = [];
    while (k < ops.length && ops[k]?.op === "del") dels.push((ops[k++] as { text: string }).text);
    while (k < ops.length && ops[k]?.op === "add") adds.push((ops[k++] as { text: string }).text);
    for (let p = 0; p < Math.max(dels.length, adds.length); p++) {
      const left = dels[p];
      const right = adds[p];
      rows.push({ left, right, kind: left !== undefined && right !== undefined ? "changed" : left !== undefined ? "removed" : "added" });
    }
  }
  return rows;
}

/** The value at a finding's `$.a.b[0].c` path, when it is a string. */
export function valueAtPath(root: unknown, jsonPath: string): string | undefined {
  const parts = jsonPath
    .replace(/^\$\.?/, "")
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== "");
  let value: unknown = root;
  for (const part of parts) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === "string" ? value : undefined;
}

/**
 * Splits `text` around the first occurrence of the finding's evidence, for a <mark>. The audit shows
 * evidence normalised (lower case, cut with "…"), so it is looked for without case and the marked
 * part is the original text.
 */
export function highlight(text: string, evidence: string): { before: string; match: string; after: string } | undefined {
  const needle = evidence.replace(/…\s*\(\d+ chars\)$/, "").replace(/^…|…$/g, "").toLowerCase();
  if (needle === "") return undefined;
  const at = text.toLowerCase().indexOf(needle);
  if (at === -1) return undefined;
  return { before: text.slice(0, at), match: text.slice(at, at + needle.length), after: text.slice(at + needle.length) };
}
