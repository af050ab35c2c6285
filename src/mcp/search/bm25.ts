import type { CorpusView } from "./corpus-view.js";
import { FIELD_COUNT, type SearchableTool } from "./search-index.js";
import { synonymsOf } from "./synonyms.js";
import { queryWords } from "./tokenise.js";

/**
 * BM25F (Robertson & Zaragoza) over the fields of search-index.ts. Field weights: a word in the
 * tool's name says most, the server's name ("github") is a strong hint, the description is the
 * baseline, parameter names and their descriptions add a little. b: descriptions vary most in
 * length, so they are normalised most; a server name is the same for all its tools.
 */
const K1 = 1.2;
const FIELD_WEIGHTS = [3, 2.5, 1, 0.6, 0.3] as const;
const FIELD_B = [0.4, 0, 0.75, 0.5, 0.75] as const;
/** A synonym (synonyms.ts) or a longer word the query word begins counts less than the word itself. */
const SYNONYM_WEIGHT = 0.5;
const PREFIX_WEIGHT = 0.4;
/** The share of a score kept by a tool that matches none of the query's words but one: covering more words wins. */
const COVERAGE_FLOOR = 0.4;

export interface SearchHit<T extends SearchableTool> {
  readonly tool: T;
  readonly score: number;
  /** Query words (as typed, lower-cased) that matched, directly or by a synonym or prefix. */
  readonly matched: readonly string[];
}

interface WeightedTerm {
  weight: number;
  /** Bit per query word this term stands for. */
  origins: number;
}

function expandQuery(origins: readonly string[], prefixes: readonly string[], view: CorpusView<SearchableTool>): Map<string, WeightedTerm> {
  const terms = new Map<string, WeightedTerm>();
  const add = (term: string, weight: number, origin: number) => {
    const found = terms.get(term);
    if (found === undefined) terms.set(term, { weight, origins: 1 << origin });
    else {
      found.weight = Math.max(found.weight, weight);
      found.origins |= 1 << origin;
    }
  };
  origins.forEach((term, origin) => {
    add(term, 1, origin);
    for (const phrase of synonymsOf(term)) for (const word of phrase) add(word, SYNONYM_WEIGHT, origin);
    const prefix = prefixes[origin];
    if (prefix !== undefined && prefix.length >= 3) for (const word of view.wordsStartingWith(prefix)) if (word !== term) add(word, PREFIX_WEIGHT, origin);
  });
  return terms;
}

function popcount(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b &= b - 1) n++;
  return n;
}

/** Code-unit order: the same on every machine and locale, and far cheaper than localeCompare. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Candidate {
  readonly doc: number;
  readonly score: number;
  readonly exact: boolean;
}

/** Best first; ties in a stable server-then-name order, so the same query always gives the same list. */
function better<T extends SearchableTool>(a: Candidate, b: Candidate, toolOf: (doc: number) => T): number {
  if (a.exact !== b.exact) return a.exact ? -1 : 1;
  if (a.score !== b.score) return b.score - a.score;
  const x = toolOf(a.doc);
  const y = toolOf(b.doc);
  return compareText(x.server, y.server) || compareText(x.name, y.name);
}

/**
 * The best `limit` tools of a corpus for a free-text query, best first. A query that is a tool's
 * whole name (`readFile`, `github.create_issue`) puts that tool first. Tools matching nothing are left out.
 */
export function searchCorpus<T extends SearchableTool>(view: CorpusView<T>, query: string, limit: number): SearchHit<T>[] {
  const words = queryWords(query).slice(0, 30);
  const origins = words.map((w) => w.term);
  const whole = query.trim().toLowerCase();
  if ((origins.length === 0 && whole.length === 0) || view.documents === 0 || limit <= 0) return [];
  const terms = expandQuery(
    origins,
    words.map((w) => w.prefix),
    view as unknown as CorpusView<SearchableTool>);
  const scores = new Float64Array(view.documents);
  const matched = new Uint32Array(view.documents);
  const touched: number[] = [];
  const average = view.average;
  for (const [term, { weight, origins: bits }] of terms) {
    const runs = view.runs.get(term);
    if (runs === undefined) continue;
    const df = view.frequency.get(term) ?? 0;
    const idf = Math.log(1 + (view.documents - df + 0.5) / (df + 0.5));
    for (const { index, base, postings } of runs) {
      const lengths = (view.indexes[index] as { lengths: Uint16Array }).lengths;
      const { docs, tf } = postings;
      for (let p = 0; p < docs.length; p++) {
        const doc = docs[p] as number;
        let pseudo = 0;
        for (let f = 0; f < FIELD_COUNT; f++) {
          const count = tf[p * FIELD_COUNT + f] as number;
          if (count === 0) continue;
          const b = FIELD_B[f] as number;
          pseudo += ((FIELD_WEIGHTS[f] as number) * count) / (1 - b + (b * (lengths[doc * FIELD_COUNT + f] as number)) / (average[f] as number));
        }
        const global = base + doc;
        if (matched[global] === 0) touched.push(global);
        scores[global] = (scores[global] as number) + weight * idf * (pseudo / (K1 + pseudo));
        matched[global] = (matched[global] as number) | bits;
      }
    }
  }

  const exact = new Set<number>();
  view.indexes.forEach((index, i) => {
    const doc = index.exactNames.get(whole);
    if (doc !== undefined) exact.add((view.bases[i] as number) + doc);
  });
  for (const doc of exact) if (matched[doc] === 0) touched.push(doc);

  const toolOf = (doc: number): T => {
    let lo = 0;
    let hi = view.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((view.bases[mid] as number) <= doc) lo = mid;
      else hi = mid - 1;
    }
    return view.indexes[lo]?.docs[doc - (view.bases[lo] as number)] as T;
  };
  // Top `limit` by a bounded insertion: thousands of tools may match a common word, few are shown.
  const top: Candidate[] = [];
  for (const doc of touched) {
    const coverage = origins.length <= 1 ? 1 : COVERAGE_FLOOR + ((1 - COVERAGE_FLOOR) * popcount(matched[doc] as number)) / origins.length;
    const score = (scores[doc] as number) * coverage;
    const last = top[top.length - 1];
    if (top.length === limit && last !== undefined && !last.exact && score < last.score) continue;
    const candidate: Candidate = { doc, score, exact: exact.has(doc) };
    if (top.length === limit && better(candidate, last as Candidate, toolOf) >= 0) continue;
    let at = top.length;
    while (at > 0 && better(candidate, top[at - 1] as Candidate, toolOf) < 0) at--;
    top.splice(at, 0, candidate);
    if (top.length > limit) top.pop();
  }
  return top.map(({ doc, score }) => ({
    tool: toolOf(doc),
    score: Math.round(score * 100) / 100,
    matched: words.map((w) => w.word).filter((_, o) => ((matched[doc] as number) & (1 << o)) !== 0),
  }));
}
