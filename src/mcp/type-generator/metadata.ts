import { sanitizeDescription } from "../sanitise/description.js";
import { formatToolSignature } from "./signature.js";
import { checkedTools } from "./tool-list.js";
import type { ModuleMetadata, ServerInfoForMetadata, ToolForTypes, ToolHints, ToolMetadata } from "./types.js";

export const MAX_SUMMARY_LENGTH = 120;

function oneLine(text: string): string {
  return sanitizeDescription(text).replace(/\s+/g, " ").trim();
}

function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The first sentence of untrusted text, on one line, at most `max` characters. */
export function firstSentence(text: string, max = MAX_SUMMARY_LENGTH): string {
  const flat = oneLine(text);
  const match = /^.*?[.!?](?=\s|$)/.exec(flat);
  return capped(match?.[0] ?? flat, max);
}

export function toolHints(tool: ToolForTypes): ToolHints {
  const annotations = tool.annotations ?? {};
  const hints: ToolHints = {};
  if (annotations.readOnlyHint !== undefined) hints.readOnly = annotations.readOnlyHint;
  if (annotations.destructiveHint !== undefined) hints.destructive = annotations.destructiveHint;
  if (annotations.idempotentHint !== undefined) hints.idempotent = annotations.idempotentHint;
  if (annotations.openWorldHint !== undefined) hints.openWorld = annotations.openWorldHint;
  return hints;
}

function toolSummary(tool: ToolForTypes): string {
  const text = tool.description ?? tool.annotations?.title ?? "";
  const summary = firstSentence(text);
  return summary === "" ? `MCP tool ${JSON.stringify(oneLine(tool.originalName))}` : summary;
}

function moduleSummary(serverName: string, tools: readonly ToolForTypes[], serverInfo: ServerInfoForMetadata | undefined): string {
  for (const text of [serverInfo?.description, serverInfo?.instructions]) {
    if (text !== undefined && oneLine(text) !== "") return firstSentence(text);
  }
  if (tools.length === 0) return `MCP server "${serverName}" (no tools)`;
  const count = tools.length === 1 ? "1 tool" : `${tools.length} tools`;
  return capped(`MCP server "${serverName}", ${count}: ${tools.map((tool) => tool.jsName).join(", ")}`, MAX_SUMMARY_LENGTH);
}

/** What module_info shows for `host:mcp-<serverName>`. */
export function buildModuleMetadata(
  serverName: string,
  tools: readonly ToolForTypes[],
  serverInfo?: ServerInfoForMetadata,
): ModuleMetadata {
  const checked = checkedTools(serverName, tools);
  return {
    module: `mcp-${serverName}`,
    summary: moduleSummary(serverName, checked, serverInfo),
    tools: checked.map(
      (tool): ToolMetadata => ({
        jsName: tool.jsName,
        originalName: tool.originalName,
        summary: toolSummary(tool),
        signature: formatToolSignature(tool),
        hints: toolHints(tool),
      }),
    ),
  };
}
