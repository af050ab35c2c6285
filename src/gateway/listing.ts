import type { ServerCatalog } from "../mcp/service/index.js";
import { searchCatalogs } from "../mcp/search/index.js";
import { compactListing, compactListingText, firstSentence } from "../mcp/type-generator/index.js";

/**
 * A whole listing (no server, no query) gives each module's full declarations only while they are
 * this short; a bigger module gets one line per tool. 36 tools of three common servers as full
 * .d.ts cost more tokens than their raw tools/list, which defeats the point of a gateway.
 */
export const LISTING_FULL_MAX_CHARS = 1_500;

export interface ListingRequest {
  readonly server?: string | undefined;
  readonly query?: string | undefined;
}

/**
 * The text of `list_mcp_tools`: with `server`, that module's full declarations (parameter docs and
 * output types); with `query`, the matching tools' signatures; with neither, every module compactly —
 * one line per tool (the agent's compact signatures: every parameter, the return type, the first
 * sentence), full declarations only for small modules — and how to ask for more.
 */
export async function listingText(catalogs: readonly ServerCatalog[], request: ListingRequest): Promise<string> {
  if (request.query !== undefined && request.query.trim() !== "") {
    const lines = searchCatalogs(catalogs, request.query, 50).map(({ catalog, tool }) => `// require("host:${catalog.module}") — ${firstSentence(tool.description)}\n${catalog.signature(tool)}`);
    return lines.join("\n\n") || `// No tool matches "${request.query}".`;
  }
  if (request.server !== undefined) {
    const blocks = await Promise.all(catalogs.map((c) => c.declarations()));
    return blocks.join("\n\n") || "// No MCP tools are available.";
  }
  const blocks: string[] = [];
  let compacted = false;
  for (const catalog of catalogs) {
    const full = await catalog.declarations();
    if (full.length <= LISTING_FULL_MAX_CHARS) {
      blocks.push(full.trimEnd());
      continue;
    }
    compacted = true;
    blocks.push(compactModule(catalog));
  }
  if (blocks.length === 0) return "// No MCP tools are available.";
  const note = compacted ? '\n\n// One line per tool; list_mcp_tools {"server": "<name>"} gives full declarations with parameter docs.' : "";
  return `${blocks.join("\n\n")}${note}`;
}

/** One line per tool (src/mcp/type-generator/compact-listing.ts), under the module to require. */
function compactModule(catalog: ServerCatalog): string {
  return `// require("host:${catalog.module}")\n${compactListingText(compactListing(catalog.forTypes()))}`;
}
