import { screenModelOutput } from "../mcp/service/index.js";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { McpvmHost } from "../host/index.js";
import { searchCatalogs } from "../mcp/search/index.js";
import { firstSentence } from "../mcp/type-generator/index.js";
import type { ToolDirectory } from "./directory.js";
import { listingText } from "./listing.js";
import { jsonResult, textResult } from "./results.js";
import type { GatewaySettings } from "./settings.js";

export interface CodeModeContext {
  readonly signal: AbortSignal;
}

function unavailableLines(unavailable: ReadonlyArray<{ message: string }>): string {
  return unavailable.length === 0 ? "" : `\n// Not available:\n${unavailable.map((u) => `//   ${u.message}`).join("\n")}\n`;
}

/** The code-mode tools: the client's model reads typed signatures and runs one script that calls many tools. */
export class CodeMode {
  constructor(
    private readonly host: McpvmHost,
    private readonly directory: ToolDirectory,
    private readonly settings: GatewaySettings,
  ) {}

  /** See listingText: one server's declarations, a query's matching signatures, or every module compactly. */
  async listMcpTools(args: { server?: string | undefined; query?: string | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const { catalogs, unavailable } = await this.directory.catalogs({ signal: context.signal }, args.server);
    return textResult(`${await listingText(catalogs, args)}${unavailableLines(unavailable)}`);
  }

  async searchTools(args: { query: string; limit?: number | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const { catalogs, unavailable } = await this.directory.catalogs({ signal: context.signal });
    const ranked = searchCatalogs(catalogs, args.query, args.limit ?? this.settings.searchLimit);
    return jsonResult({
      results: ranked.map(({ catalog, tool, score, matched }) => ({
        tool: `${catalog.server}.${tool.originalName}`,
        module: `host:${catalog.module}`,
        signature: catalog.signature(tool),
        description: firstSentence(tool.description, 300),
        score,
        matched,
      })),
      unavailable: unavailable.map((u) => u.message),
    });
  }

  async discoverAllTools(args: { server?: string | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const { catalogs, unavailable } = await this.directory.catalogs({ signal: context.signal }, args.server);
    return jsonResult({
      servers: catalogs.map((catalog) => ({
        server: catalog.server,
        tools: catalog.tools.map((t) => ({ tool: `${catalog.server}.${t.originalName}`, description: firstSentence(t.description, 300) })),
        held: catalog.held.map((h) => ({ tool: `${catalog.server}.${h.name}`, reason: h.reason })),
      })),
      unavailable: unavailable.map((u) => u.message),
    });
  }

  /**
   * A fresh sandbox per call (host.run gives each run its own guest context), so concurrent
   * scripts from several clients never share state. timeoutMs is one wall budget for the whole
   * script, host calls included, capped by gateway.maxTimeoutMs.
   */
  async runMcpScript(args: { script: string; timeoutMs?: number | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const wallMs = Math.min(args.timeoutMs ?? this.host.limits().wallMs, this.settings.maxTimeoutMs);
    const result = await this.host.run(args.script, { limits: { wallMs }, signal: context.signal, filename: "run_mcp_script.js" });
    const logs = result.logs.map((l) => ({ level: l.level, message: l.message }));
    const screening = screenModelOutput({ result: result.ok ? result.value : null, logs: logs.map((l) => l.message) });
    const warnings = screening.notice === undefined ? {} : { warnings: [screening.notice] };
    // Notes say what the sandbox converted or left out of the result (a Map returned as an object, …).
    if (result.ok) return jsonResult({ result: result.value ?? null, logs, ...(result.notes === undefined ? {} : { notes: result.notes }), ...warnings });
    const { code, message, name, line, column, limit, errorCode } = result.error;
    const error = { code, message, ...(name === undefined ? {} : { name }), ...(line === undefined ? {} : { line, column }), ...(limit === undefined ? {} : { limit }), ...(errorCode === undefined ? {} : { errorCode }) };
    return jsonResult({ result: null, logs, error, ...warnings }, true);
  }
}
