import { distance } from "fastest-levenshtein";

/**
 * Two letters typed the wrong way round (`hepl`, `mpc`): one slip, though Levenshtein counts two
 * edits, which a short name's budget of one does not allow.
 */
export function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/**
 * "Did you mean …?" for every name a person types: commands, servers, tools, toolsets, profiles,
 * plugins, config keys. Case is ignored; a candidate is offered only when it is close enough
 * that the suggestion is likely right (edit distance at most a third of the name, at least 1; two
 * neighbouring letters swapped count as one edit), or when one name starts with the other.
 */
export function closestMatches(input: string, candidates: Iterable<string>, limit = 3): string[] {
  const needle = input.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    const hay = name.toLowerCase();
    if (hay === needle) return [name];
    const d = isSwap(needle, hay) ? 1 : distance(needle, hay);
    const budget = Math.max(1, Math.floor(Math.max(needle.length, hay.length) / 3));
    const prefix = needle.length >= 3 && (hay.startsWith(needle) || needle.startsWith(hay));
    if (d <= budget || prefix) scored.push({ name, score: prefix ? Math.min(d, 1) : d });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}

/** `; did you mean "x"?` (or `; did you mean "x" or "y"?`), or "" when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const matches = closestMatches(input, candidates);
  if (matches.length === 0) return "";
  const quoted = matches.map((m) => `"${m}"`);
  return `; did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`}?`;
}
