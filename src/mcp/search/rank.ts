import { queryTerms, stem, tokenise } from "./tokenise.js";

/** One tool as search sees it. */
export interface SearchableTool {
  readonly server: string;
  /** The tool's name as the guest calls it. */
  readonly name: string;
  readonly description: string;
}

export interface RankedTool<T extends SearchableTool = SearchableTool> {
  readonly tool: T;
  readonly score: number;
  /** Query terms that matched, for "why this result". */
  readonly matched: readonly string[];
}

export interface RankOptions {
  /** Most results returned (default 10). */
  readonly limit?: number;
}

/**
 * Weights: a whole-name match says far more than a word somewhere in a long description, and a
 * server-name match ("github") is a strong hint the person means that server's tools.
 */
const WEIGHTS = { exactName: 12, nameWord: 5, namePrefix: 3, serverWord: 4, descriptionWord: 1.5, descriptionPrefix: 0.5 } as const;

function words(text: string): Set<string> {
  return new Set(tokenise(text).map(stem));
}

function scoreTool(tool: SearchableTool, terms: readonly string[], normalisedQuery: string): { score: number; matched: string[] } {
  const name = words(tool.name);
  const server = words(tool.server);
  const description = words(tool.description);
  let score = tool.name.toLowerCase() === normalisedQuery || `${tool.server}.${tool.name}`.toLowerCase() === normalisedQuery ? WEIGHTS.exactName : 0;
  const matched: string[] = [];
  for (const term of terms) {
    let termScore = 0;
    if (name.has(term)) termScore += WEIGHTS.nameWord;
    else if (term.length >= 3 && [...name].some((w) => w.startsWith(term))) termScore += WEIGHTS.namePrefix;
    if (server.has(term)) termScore += WEIGHTS.serverWord;
    if (description.has(term)) termScore += WEIGHTS.descriptionWord;
    else if (term.length >= 3 && [...description].some((w) => w.startsWith(term))) termScore += WEIGHTS.descriptionPrefix;
    if (termScore > 0) matched.push(term);
    score += termScore;
  }
  // Covering every query word beats matching one word many ways.
  if (terms.length > 1) score *= 0.5 + (0.5 * matched.length) / terms.length;
  return { score, matched };
}

/**
 * Tools ranked by how well they match a free-text query, best first; ties keep a stable
 * server-then-name order so the same query always gives the same list. Tools matching nothing are left out.
 */
export function rankTools<T extends SearchableTool>(query: string, tools: readonly T[], options: RankOptions = {}): RankedTool<T>[] {
  const limit = options.limit ?? 10;
  const terms = queryTerms(query);
  const normalisedQuery = query.trim().toLowerCase();
  if (terms.length === 0 && normalisedQuery.length === 0) return [];
  const ranked: RankedTool<T>[] = [];
  for (const tool of tools) {
    const { score, matched } = scoreTool(tool, terms, normalisedQuery);
    if (score > 0) ranked.push({ tool, score: Math.round(score * 100) / 100, matched });
  }
  ranked.sort((a, b) => b.score - a.score || a.tool.server.localeCompare(b.tool.server) || a.tool.name.localeCompare(b.tool.name));
  return ranked.slice(0, Math.max(0, limit));
}
