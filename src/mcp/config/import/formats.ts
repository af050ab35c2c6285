import { McpConfigError } from "../errors.js";

/**
 * - "vscode": VS Code mcp.json (`servers`, `inputs`), or settings.json (`mcp.servers`, `mcp.inputs`)
 * - "mcpServers": Claude Desktop, Cursor, Claude Code .mcp.json, Windsurf, Cline — and mcpvm's own config.json
 * - "command-array": a top-level `mcp` object of entries with `command: [...]` and `type: "local"|"remote"|"http"|"sse"`
 */
export type McpImportFormat = "vscode" | "mcpServers" | "command-array";

export interface DetectedImport {
  readonly format: McpImportFormat;
  /** JSON path of the servers object inside the file, for messages. */
  readonly pathPrefix: readonly string[];
  readonly servers: Readonly<Record<string, unknown>>;
  /** VS Code input definitions (unvalidated); empty for other formats. */
  readonly inputs: readonly unknown[];
  /** Sections that were present but not imported, so nothing is dropped without a word. */
  readonly ignoredSections: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unknownFormat(file: string): McpConfigError {
  return new McpConfigError(
    "MCP_IMPORT_UNKNOWN_FORMAT",
    `${file} has no MCP servers section mcpvm knows: expected "mcpServers" (Claude Desktop, Cursor, Claude Code), "servers" (VS Code mcp.json), "mcp.servers" (VS Code settings) or "mcp" (command-array entries)`,
    { data: { file } },
  );
}

const ADD_BY_HAND = "add each server with `mcpvm mcp add <name> -- <command> [args...]` or `mcpvm mcp add <name> --transport http <url>`";

/** A format mcpvm recognises but does not import: said by name, so the user knows it is not a broken file. */
export function unsupportedFormat(file: string, what: string): McpConfigError {
  return new McpConfigError("MCP_IMPORT_UNSUPPORTED_FORMAT", `${file} is ${what}, which mcpvm cannot import; ${ADD_BY_HAND}`, { data: { file } });
}

export function detectImportFormat(file: string, raw: unknown): DetectedImport {
  if (!isRecord(raw)) throw unknownFormat(file);
  const candidates: DetectedImport[] = [];
  if (isRecord(raw.mcpServers)) {
    candidates.push({ format: "mcpServers", pathPrefix: ["mcpServers"], servers: raw.mcpServers, inputs: [], ignoredSections: [] });
  }
  if (isRecord(raw.servers)) {
    const inputs = Array.isArray(raw.inputs) ? raw.inputs : [];
    candidates.push({ format: "vscode", pathPrefix: ["servers"], servers: raw.servers, inputs, ignoredSections: [] });
  }
  if (isRecord(raw.mcp)) {
    const mcp = raw.mcp;
    if (isRecord(mcp.servers)) {
      const inputs = Array.isArray(mcp.inputs) ? mcp.inputs : [];
      candidates.push({ format: "vscode", pathPrefix: ["mcp", "servers"], servers: mcp.servers, inputs, ignoredSections: [] });
    } else {
      candidates.push({ format: "command-array", pathPrefix: ["mcp"], servers: mcp, inputs: [], ignoredSections: [] });
    }
  }
  const [chosen, ...others] = candidates;
  if (!chosen && isRecord(raw.context_servers)) throw unsupportedFormat(file, 'a Zed settings file ("context_servers")');
  if (!chosen) throw unknownFormat(file);
  return { ...chosen, ignoredSections: others.map((other) => other.pathPrefix.join(".")) };
}
