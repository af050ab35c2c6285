export { rankTools, type SearchableTool, type RankedTool, type RankOptions } from "./rank.js";
export { tokenise, stem, queryTerms } from "./tokenise.js";
export { searchCatalogs, type CatalogMatch } from "./catalog-search.js";
