import { FIELD_COUNT, type SearchableTool, type SearchIndex } from "./search-index.js";
import { synonymsOf } from "./synonyms.js";
import { queryTerms } from "./tokenise.js";

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
  /** Query words (stemmed) that matched, directly or by a synonym or prefix. */
  readonly matched: readonly string[];
}

interface WeightedTerm {
  weight: number;
  /** Bit per query word this term stands for. */
  origins: number;
}

function expandQuery(origins: readonly string[], indexes: readonly SearchIndex[]): Map<string, WeightedTerm> {
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
    if (origin >= 31) return;
    add(term, 1, origin);
    for (const phrase of synonymsOf(term)) for (const word of phrase) add(word, SYNONYM_WEIGHT, origin);
    if (term.length >= 3) for (const index of indexes) for (const word of index.wordsStartingWith(term)) add(word, PREFIX_WEIGHT, origin);
  });
  return terms;
}

function popcount(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b &= b - 1) n++;
  return n;
}

/**
 * The best `limit` tools of several indexes for a free-text query, best first; ties keep a stable
 * server-then-name order so the same query always gives the same list. A query that is a tool's
 * whole name (`readFile`, `github.create_issue`) puts that tool first. Tools matching nothing are left out.
 */
export function searchIndexes<T extends SearchableTool>(indexes: readonly SearchIndex<T>[], query: string, limit: number): SearchHit<T>[] {
  const origins = queryTerms(query).slice(0, 31);
  const whole = query.trim().toLowerCase();
  if (origins.length === 0 && whole.length === 0) return [];
  const terms = expandQuery(origins, indexes);

  let documents = 0;
  const average = new Float64Array(FIELD_COUNT);
  for (const index of indexes) {
    documents += index.docs.length;
    for (let f = 0; f < FIELD_COUNT; f++) average[f] = (average[f] ?? 0) + (index.totals[f] ?? 0);
  }
  if (documents === 0) return [];
  for (let f = 0; f < FIELD_COUNT; f++) average[f] = Math.max((average[f] ?? 0) / documents, 1e-9);

  const scores = indexes.map(() => new Map<number, { score: number; origins: number }>());
  for (const [term, { weight, origins: bits }] of terms) {
    let df = 0;
    for (const index of indexes) df += index.postings.get(term)?.length ?? 0;
    if (df === 0) continue;
    const idf = Math.log(1 + (documents - df + 0.5) / (df + 0.5));
    indexes.forEach((index, i) => {
      const postings = index.postings.get(term);
      if (postings === undefined) return;
      const perDoc = scores[i] as Map<number, { score: number; origins: number }>;
      for (const { doc, tf } of postings) {
        let pseudo = 0;
        for (let f = 0; f < FIELD_COUNT; f++) {
          const count = tf[f] ?? 0;
          if (count === 0) continue;
          const b = FIELD_B[f] as number;
          pseudo += ((FIELD_WEIGHTS[f] as number) * count) / (1 - b + (b * (index.lengths[doc * FIELD_COUNT + f] ?? 0)) / (average[f] as number));
        }
        const gain = weight * idf * (pseudo / (K1 + pseudo));
        const entry = perDoc.get(doc);
        if (entry === undefined) perDoc.set(doc, { score: gain, origins: bits });
        else {
          entry.score += gain;
          entry.origins |= bits;
        }
      }
    });
  }

  const hits: { tool: T; score: number; origins: number; exact: boolean }[] = [];
  indexes.forEach((index, i) => {
    const exactDoc = index.exactNames.get(whole);
    for (const [doc, { score, origins: bits }] of scores[i] as Map<number, { score: number; origins: number }>) {
      const coverage = origins.length <= 1 ? 1 : COVERAGE_FLOOR + ((1 - COVERAGE_FLOOR) * popcount(bits)) / origins.length;
      hits.push({ tool: index.docs[doc] as T, score: score * coverage, origins: bits, exact: doc === exactDoc });
    }
    if (exactDoc !== undefined && !(scores[i] as Map<number, unknown>).has(exactDoc)) hits.push({ tool: index.docs[exactDoc] as T, score: 0, origins: 0, exact: true });
  });
  hits.sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || a.tool.server.localeCompare(b.tool.server) || a.tool.name.localeCompare(b.tool.name));
  return hits.slice(0, Math.max(0, limit)).map(({ tool, score, origins: bits }) => ({
    tool,
    score: Math.round(score * 100) / 100,
    matched: origins.filter((_, o) => (bits & (1 << o)) !== 0),
  }));
}
