/**
 * Words of a tool name or description, lower-cased: `listIssues`, `list_issues`, `list-issues` and
 * `list issues` all give ["list", "issues"], so a query matches however a server spells its names.
 */
export function tokenise(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * A light English stem (plurals, -ing, -ed, a final -e), so "files", "file", "approved" and "approve"
 * meet. Not Porter: derivations ("creation") stay apart, which keeps names and their nouns distinct.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && (w.endsWith("ies") || w.endsWith("ied"))) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && /(ss|x|ch|sh|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed") && !w.endsWith("eed")) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

/** English words that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  (
    "a an the of to in on at for and or with by is are was were be been it its from that this these those into onto " +
    "i me my mine we us our you your he she they them their there here what which who whom whose when where how why " +
    "do does did can could would should will shall may might must please just some any all every each so then than " +
    "too very also about as if not no yes want need like let lets"
  ).split(" "),
);

/** Query words that carry meaning, stemmed, in the order asked (duplicates once). */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenise(query).filter((w) => !STOP_WORDS.has(w)).map(stem))];
}
