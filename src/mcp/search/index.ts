export { rankTools, type RankedTool, type RankOptions } from "./rank.js";
export { SearchIndex, type SearchableTool } from "./search-index.js";
export { searchCorpus, type SearchHit } from "./bm25.js";
export { CorpusView, corpusView } from "./corpus-view.js";
export { tokenise, stem, queryTerms, queryWords, describeLiterals, type QueryWord } from "./tokenise.js";
export { synonymsOf } from "./synonyms.js";
export { searchCatalogs, catalogIndex, type CatalogMatch } from "./catalog-search.js";
export { SEARCH_ANSWER_TOKENS, estimateTokens, fitToBudget } from "./answer-budget.js";
