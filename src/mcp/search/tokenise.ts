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
  let found = stems.get(word);
  if (found === undefined) {
    // Tool vocabularies repeat the same few thousand words: indexing 10,000 tools stems each once.
    if (stems.size >= 100_000) stems.clear();
    found = stemWord(word);
    stems.set(word, found);
  }
  return found;
}

const stems = new Map<string, string>();

function stemWord(word: string): string {
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

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const URL_LITERAL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
/** A path (`./src/index.ts`, `build/output`, `logs/2024`) or a file name with an extension (`notes.txt`). */
const PATH_LITERAL = /(?:^|\s)(?:~|\.{1,2})?(?:[\w.-]+\/)+[\w.-]*|(?:^|\s)[\w-]+\.[a-z][a-z0-9]{0,4}(?=\s|$|[,;:!?])/gi;

/**
 * A URL or a path in a query says what kind of argument the tool takes, not which words it is
 * described with: `https://example.com` stands for "url", `notes.txt` for "file path".
 */
export function describeLiterals(query: string): string {
  return query.replace(URL_LITERAL, " url ").replace(PATH_LITERAL, " file path ");
}

/** Query words that carry meaning, stemmed, in the order asked (duplicates once). */
export function queryTerms(query: string): string[] {
  return queryWords(query).map((w) => w.term);
}

export interface QueryWord {
  /** As typed (lower-cased): what "matched" shows. */
  readonly word: string;
  /** Stemmed: what the index holds. */
  readonly term: string;
  readonly prefix: string;
}

/**
 * Query words with what a longer indexed word may begin with: the word as typed less a plural -s
 * ("files" → "file" → "filesystem"), not its stem ("fil" would reach "filter").
 */
export function queryWords(query: string): QueryWord[] {
  const seen = new Set<string>();
  const words: QueryWord[] = [];
  for (const word of tokenise(describeLiterals(query))) {
    if (STOP_WORDS.has(word)) continue;
    const term = stem(word);
    if (seen.has(term)) continue;
    seen.add(term);
    words.push({ word, term, prefix: word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word });
  }
  return words;
}
