import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/server";

/**
 * The gateway's own tools. Each zod schema is the single source of truth: it validates the
 * arguments and, converted, is the inputSchema clients see.
 */
export const builtinArgs = {
  list_mcp_tools: z
    .object({
      server: z.string().optional().describe("One server, fully declared."),
      query: z.string().optional().describe("Only tools whose name or description matches these words."),
    })
    .strict(),
  run_mcp_script: z
    .object({
      script: z.string().min(1).describe("JavaScript (script body; top-level await and return work)."),
      timeoutMs: z.number().int().positive().optional().describe("Wall-clock budget for the whole script, tool calls included; capped by the gateway's configuration."),
    })
    .strict(),
  search_tools: z
    .object({
      query: z.string().min(1).describe("Words describing what you want to do."),
      limit: z.number().int().min(1).max(100).optional().describe("Most results (default 10)."),
    })
    .strict(),
  "discover-all-tools": z.object({ server: z.string().optional().describe("Only this server.") }).strict(),
  "build-toolset": z
    .object({
      name: z.string().describe("Toolset name: letters, digits, _ or -."),
      tools: z.array(z.string()).min(1).describe('Tools as "server.tool", e.g. ["git.status", "memory.read_graph"].'),
      description: z.string().optional(),
    })
    .strict(),
  "equip-toolset": z.object({ name: z.string() }).strict(),
  "unequip-toolset": z.object({}).strict(),
  "list-toolsets": z.object({}).strict(),
  "get-active-toolset": z.object({}).strict(),
  "delete-toolset": z.object({ name: z.string() }).strict(),
} as const;

export type BuiltinToolName = keyof typeof builtinArgs;
export const BUILTIN_TOOL_NAMES = Object.keys(builtinArgs) as BuiltinToolName[];

export function isBuiltinTool(name: string): name is BuiltinToolName {
  return Object.hasOwn(builtinArgs, name);
}

// Only the hints that differ from MCP's defaults (readOnly false, destructive true, idempotent false,
// openWorld true); destructive and idempotent mean nothing for a read-only tool. Every client's model
// reads these definitions on every turn, so each token counts.
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const descriptions: Record<BuiltinToolName, string> = {
  list_mcp_tools:
    'The MCP tools as TypeScript for require("host:mcp-<server>"), one line each; `server` gives full declarations, `query` the matches.',
  run_mcp_script:
    'Run JavaScript in a fresh sandbox where every MCP server is a module: `const gh = require("host:mcp-github"); return gh.list_issues({...})` (calls look synchronous), or `await tools.github.list_issues({...})`. Returns {result, logs, error?}. Use it to call many tools in one step and keep intermediate data out of the conversation.',
  search_tools: "Search the tools of every enabled MCP server by what they do; returns the best matches with their signatures.",
  "discover-all-tools": "Every tool of every enabled, approved MCP server as server.tool with its description; use the names with build-toolset.",
  "build-toolset": "Save a named toolset (a list of server.tool references) in the mcpvm config home. References to unknown tools are reported.",
  "equip-toolset": "Expose the tools of a saved toolset as direct tools of this gateway (names flattened, e.g. git.status -> git_status).",
  "unequip-toolset": "Remove the direct tools of the equipped toolset.",
  "list-toolsets": "The saved toolsets.",
  "get-active-toolset": "The equipped toolset, its direct tool names and any references that no longer resolve.",
  "delete-toolset": "Delete a saved toolset (unequipping it if it is equipped).",
};

const annotations: Partial<Record<BuiltinToolName, Tool["annotations"]>> = {
  list_mcp_tools: READ_ONLY,
  search_tools: READ_ONLY,
  "discover-all-tools": READ_ONLY,
  "list-toolsets": READ_ONLY,
  "get-active-toolset": READ_ONLY,
  // run_mcp_script: the defaults (may write, may reach anything its servers reach).
};

function inputSchema(schema: z.ZodType): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12" }) as Record<string, unknown>;
  delete json.$schema;
  // z.int() states Number.MAX_SAFE_INTEGER as its maximum: true, but no model needs to read it.
  for (const property of Object.values((json.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    if (property.maximum === Number.MAX_SAFE_INTEGER) delete property.maximum;
  }
  return { ...json, type: "object" } as Tool["inputSchema"];
}

/** Definitions of the always-present tools; `notes` are appended to descriptions (unapproved servers and how to approve them). */
export function builtinToolDefinitions(notes: { serverNote: string }): Tool[] {
  return BUILTIN_TOOL_NAMES.map((name) => {
    const codeMode = name === "list_mcp_tools" || name === "run_mcp_script" || name === "search_tools" || name === "discover-all-tools";
    return {
      name,
      description: codeMode && notes.serverNote !== "" ? `${descriptions[name]}\n\n${notes.serverNote}` : descriptions[name],
      inputSchema: inputSchema(builtinArgs[name]),
      ...(annotations[name] === undefined ? {} : { annotations: annotations[name] }),
    };
  });
}
