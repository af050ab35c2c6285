import type { ServerCatalog } from "../mcp/service/index.js";
import { searchCatalogs } from "../mcp/search/index.js";
import { firstSentence, formatSchemaType, formatToolSignature, type ToolForTypes } from "../mcp/type-generator/index.js";

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
 * one line per tool (`name(input): Output` with its first sentence), full declarations only for
 * small modules — and how to ask for more.
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

/** One line per tool; a return type is shown only where the tool declares an output schema. */
function compactModule(catalog: ServerCatalog): string {
  const lines = catalog.forTypes().map((tool) => {
    const summary = firstSentence(tool.description ?? "", 120);
    return `  ${compactSignature(tool)}${summary === "" ? "" : ` // ${summary}`}`;
  });
  return `// require("host:${catalog.module}")\n${lines.join("\n")}`;
}

/**
 * `name(input: {…}): {…}` with the input as deep as the one-line signature shows it, the output one
 * level deep (its full type is in the server's declarations), no `: unknown` for tools without an
 * output schema, and `name()` for tools that take no parameters.
 */
export function compactSignature(tool: ToolForTypes): string {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  const noParameters = properties === undefined || (typeof properties === "object" && properties !== null && Object.keys(properties).length === 0);
  const output = tool.outputSchema === undefined ? "" : `: ${formatSchemaType(tool.outputSchema, 1)}`;
  if (noParameters) return `${tool.jsName}()${output}`;
  const full = formatToolSignature({ ...tool, outputSchema: undefined } as ToolForTypes);
  return `${full.replace(/\): unknown$/, ")")}${output}`;
}
