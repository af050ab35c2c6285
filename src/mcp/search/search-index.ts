import { stem, tokenise } from "./tokenise.js";

/** One tool as search sees it. */
export interface SearchableTool {
  readonly server: string;
  /** The tool's name as the guest calls it. */
  readonly name: string;
  /** The server's own name for the tool, when it differs (`list_issues` for `listIssues`). */
  readonly originalName?: string;
  readonly description: string;
  /** Names of the tool's input parameters. */
  readonly parameters?: readonly string[];
  /** What the parameters' own descriptions say. */
  readonly parameterText?: string;
}

/** The fields a tool is indexed by, in the order of every per-field array below. */
export const FIELDS = ["name", "server", "description", "parameters", "parameterText"] as const;
export const FIELD_COUNT = FIELDS.length;

/**
 * The tools that hold one word: `docs[i]` holds it `tf[i * FIELD_COUNT + f]` times in field f. Flat
 * arrays, not an object per tool: 10,000 tools make ~150,000 postings, and small objects cost the
 * garbage collector more than the counting.
 */
export interface PostingList {
  readonly docs: number[];
  readonly tf: number[];
}

/**
 * The inverted index of one catalog's tools: built once per listing (catalogs are immutable and
 * cached by the service), so a search over 10,000 tools only walks the postings of its query words.
 * Statistics that span catalogs (document frequency, average field length) are summed at query
 * time from these per-catalog counts, which is cheap: a few numbers per catalog and query word.
 */
export class SearchIndex<T extends SearchableTool = SearchableTool> {
  readonly postings = new Map<string, PostingList>();
  /** lengths[doc * FIELD_COUNT + field]: words in that field. */
  readonly lengths: Uint16Array;
  /** Words per field over every tool here, for the average field length. */
  readonly totals = new Float64Array(FIELD_COUNT);
  /** Lower-cased names a query may give whole ("readFile", "github.create_issue"), to their tool. */
  readonly exactNames = new Map<string, number>();

  constructor(readonly docs: readonly T[]) {
    this.lengths = new Uint16Array(docs.length * FIELD_COUNT);
    docs.forEach((tool, doc) => this.add(tool, doc));
  }

  private add(tool: T, doc: number): void {
    const names = [tool.name, ...(tool.originalName !== undefined && tool.originalName !== tool.name ? [tool.originalName] : [])];
    for (const name of names) {
      this.exactNames.set(name.toLowerCase(), doc);
      this.exactNames.set(`${tool.server}.${name}`.toLowerCase(), doc);
    }
    const fields = [tokenise(tool.name), tokenise(tool.server), tokenise(tool.description), (tool.parameters ?? []).flatMap((p) => tokenise(p)), tokenise(tool.parameterText ?? "")];
    const counts = new Map<string, number[]>();
    fields.forEach((words, field) => {
      this.lengths[doc * FIELD_COUNT + field] = Math.min(words.length, 65_535);
      this.totals[field] = (this.totals[field] ?? 0) + words.length;
      for (const word of words) {
        const term = stem(word);
        let tf = counts.get(term);
        if (tf === undefined) counts.set(term, (tf = new Array<number>(FIELD_COUNT).fill(0)));
        tf[field] = (tf[field] ?? 0) + 1;
      }
    });
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (list === undefined) this.postings.set(term, (list = { docs: [], tf: [] }));
      list.docs.push(doc);
      list.tf.push(...tf);
    }
  }
}
