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

/** A crude English stem (plural and -ing/-ed endings), enough that "files" finds "file". */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ied")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("es") && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

const STOP_WORDS = new Set(["a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "with", "by", "is", "it", "from", "that", "this"]);

/** Query words that carry meaning, stemmed. */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenise(query).filter((w) => !STOP_WORDS.has(w)).map(stem))];
}
