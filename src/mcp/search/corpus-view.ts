import { FIELD_COUNT, type PostingList, type SearchableTool, type SearchIndex } from "./search-index.js";

/** Where a word occurs in one catalog's index, with that index's first global document number. */
export interface PostingRun {
  readonly index: number;
  readonly base: number;
  readonly postings: PostingList;
}

/**
 * Several catalogs' indexes seen as one corpus: every word's postings in every index, document
 * frequencies, average field lengths and the sorted vocabulary, merged once per set of catalogs
 * (not per search). Searching then costs a few map lookups per query word plus its postings.
 */
export class CorpusView<T extends SearchableTool> {
  readonly documents: number;
  readonly bases: readonly number[];
  readonly average = new Float64Array(FIELD_COUNT);
  readonly runs = new Map<string, PostingRun[]>();
  readonly frequency = new Map<string, number>();
  private vocabulary: string[] | undefined;

  constructor(readonly indexes: readonly SearchIndex<T>[]) {
    let documents = 0;
    const bases: number[] = [];
    indexes.forEach((index, i) => {
      bases.push(documents);
      for (let f = 0; f < FIELD_COUNT; f++) this.average[f] = (this.average[f] ?? 0) + (index.totals[f] ?? 0);
      for (const [term, postings] of index.postings) {
        let runs = this.runs.get(term);
        if (runs === undefined) this.runs.set(term, (runs = []));
        runs.push({ index: i, base: documents, postings });
        this.frequency.set(term, (this.frequency.get(term) ?? 0) + postings.docs.length);
      }
      documents += index.docs.length;
    });
    this.documents = documents;
    this.bases = bases;
    for (let f = 0; f < FIELD_COUNT; f++) this.average[f] = Math.max((this.average[f] ?? 0) / Math.max(documents, 1), 1e-9);
  }

  /** Indexed words that start with `prefix` and are longer than it ("know" → "knowledge"). */
  wordsStartingWith(prefix: string): string[] {
    this.vocabulary ??= [...this.runs.keys()].sort();
    const vocabulary = this.vocabulary;
    let lo = 0;
    let hi = vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((vocabulary[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: string[] = [];
    for (let i = lo; i < vocabulary.length && (vocabulary[i] as string).startsWith(prefix); i++) if (vocabulary[i] !== prefix) found.push(vocabulary[i] as string);
    return found;
  }
}

/** The last few catalog sets searched: faces search the same enabled servers again and again. */
const recent: CorpusView<SearchableTool>[] = [];
const RECENT = 4;

export function corpusView<T extends SearchableTool>(indexes: readonly SearchIndex<T>[]): CorpusView<T> {
  const found = recent.findIndex((view) => view.indexes.length === indexes.length && view.indexes.every((index, i) => index === indexes[i]));
  if (found !== -1) {
    const view = recent[found] as CorpusView<SearchableTool>;
    recent.splice(found, 1);
    recent.unshift(view);
    return view as unknown as CorpusView<T>;
  }
  const view = new CorpusView(indexes);
  recent.unshift(view as unknown as CorpusView<SearchableTool>);
  recent.length = Math.min(recent.length, RECENT);
  return view;
}
