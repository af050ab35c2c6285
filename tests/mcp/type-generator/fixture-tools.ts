import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ToolForTypes } from "../../../src/mcp/type-generator/index.js";

/** Vendored in the repository (see tests/fixtures/guardbench/README.md). */
export const LISTINGS_PATH = join(resolve(import.meta.dirname, "..", "..", ".."), "tests", "fixtures", "real-server-tool-listings.json");
export const SERVER_NAMES = ["github", "filesystem", "memory", "sequential-thinking", "everything"] as const;

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolForTypes["annotations"];
}

/** The real tools/list results, shaped as the catalog hands them over (names made identifiers naively). */
export function loadListing(server: (typeof SERVER_NAMES)[number]): ToolForTypes[] {
  const listings = JSON.parse(readFileSync(LISTINGS_PATH, "utf8")) as Record<string, ListedTool[]>;
  return (listings[server] ?? []).map((tool) => ({
    jsName: tool.name.replace(/[^A-Za-z0-9_$]/g, "_"),
    originalName: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  }));
}
