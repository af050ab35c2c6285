import { z } from "zod";
import { McpvmError } from "../../util/errors.js";

export const listingCapsSchema = z
  .object({
    maxTools: z.number().int().positive().default(500),
    maxDescriptionChars: z.number().int().positive().default(10_000),
    maxSchemaDepth: z.number().int().positive().default(32),
    maxSchemaBytes: z.number().int().positive().default(256 * 1024),
    maxListingBytes: z.number().int().positive().default(4 * 1024 * 1024),
  })
  .strict();
export type ListingCaps = z.infer<typeof listingCapsSchema>;
export const DEFAULT_LISTING_CAPS: ListingCaps = listingCapsSchema.parse({});

export class McpListingError extends McpvmError<"MCP_LISTING_TOO_LARGE" | "MCP_TOO_MANY_TOOLS"> {
  override readonly name = "McpListingError";
}

export interface CappedTool {
  readonly name: string;
  readonly rule: "description-length" | "schema-depth" | "schema-size";
  readonly message: string;
}

interface ListedTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

/** Depth of nested objects/arrays, stopping early once past the limit (a hostile schema can be very deep). */
export function jsonDepth(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== "object") return depth;
  let max = depth + 1;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    max = Math.max(max, jsonDepth(child, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

/**
 * A hostile server can list 100,000 tools or a schema nested 10,000 deep to exhaust the host or
 * the model's context. Whole-listing violations refuse the server; a single oversized tool is
 * dropped and reported, the others stay usable.
 */
export function applyListingCaps<T extends ListedTool>(server: string, tools: readonly T[], caps: ListingCaps = DEFAULT_LISTING_CAPS): { kept: T[]; dropped: CappedTool[] } {
  if (tools.length > caps.maxTools) {
    throw new McpListingError("MCP_TOO_MANY_TOOLS", `MCP server ${server} lists ${tools.length} tools, more than the cap of ${caps.maxTools}; use allowTools to pick the ones you need.`, {
      data: { server, count: tools.length, cap: caps.maxTools },
    });
  }
  let total = 0;
  const kept: T[] = [];
  const dropped: CappedTool[] = [];
  for (const tool of tools) {
    const depth = Math.max(jsonDepth(tool.inputSchema, caps.maxSchemaDepth), jsonDepth(tool.outputSchema, caps.maxSchemaDepth));
    // Serialising a schema nested thousands deep overflows the stack: such a tool is dropped unmeasured.
    const bytes = depth > caps.maxSchemaDepth ? 0 : Buffer.byteLength(JSON.stringify([tool.inputSchema ?? null, tool.outputSchema ?? null]), "utf8");
    total += bytes + Buffer.byteLength(tool.description ?? "", "utf8");
    if ((tool.description ?? "").length > caps.maxDescriptionChars) {
      dropped.push({ name: tool.name, rule: "description-length", message: `description has ${(tool.description ?? "").length} characters (cap ${caps.maxDescriptionChars})` });
    } else if (depth > caps.maxSchemaDepth) {
      dropped.push({ name: tool.name, rule: "schema-depth", message: `schema nests deeper than ${caps.maxSchemaDepth} levels` });
    } else if (bytes > caps.maxSchemaBytes) {
      dropped.push({ name: tool.name, rule: "schema-size", message: `schemas take ${bytes} bytes (cap ${caps.maxSchemaBytes})` });
    } else {
      kept.push(tool);
    }
  }
  if (total > caps.maxListingBytes) {
    throw new McpListingError("MCP_LISTING_TOO_LARGE", `MCP server ${server} lists ${total} bytes of tool definitions, more than the cap of ${caps.maxListingBytes}.`, {
      data: { server, bytes: total, cap: caps.maxListingBytes },
    });
  }
  return { kept, dropped };
}
