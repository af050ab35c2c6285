import { accessAllows, screenModelOutput, type McpAccess, type ServerCatalog } from "../mcp/service/index.js";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { McpvmHost } from "../host/index.js";
import { searchCatalogs } from "../mcp/search/index.js";
import { searchAnswer } from "./search-answer.js";
import { firstSentence } from "../mcp/type-generator/index.js";
import type { ToolDirectory } from "./directory.js";
import { listingText } from "./listing.js";
import { jsonResult, textResult } from "./results.js";
import type { GatewaySettings } from "./settings.js";

export interface CodeModeContext {
  readonly signal: AbortSignal;
  /** The calling client's allow-list: only these servers and tools are listed, searched and callable. */
  readonly access?: McpAccess;
  /** The client sent a progressToken: run_mcp_script reports how long it has run (see progressHeartbeat). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The client request run_mcp_script answers: its script's calls go upstream as that client's (log level, questions). */
  readonly origin?: unknown;
}

function unavailableLines(unavailable: ReadonlyArray<{ message: string }>): string {
  return unavailable.length === 0 ? "" : `\n// Not available:\n${unavailable.map((u) => `//   ${u.message}`).join("\n")}\n`;
}

/** One module's allowed tools as signatures, for a client limited to some tools of the server. */
function allowedSignatures(catalog: ServerCatalog, access: McpAccess): string {
  const tools = catalog.tools.filter((t) => accessAllows(access, catalog.server, t.originalName));
  return [`// require("host:${catalog.module}")`, ...tools.map((t) => catalog.signature(t))].join("\n");
}

/** The code-mode tools: the client's model reads typed signatures and runs one script that calls many tools. */
export class CodeMode {
  constructor(
    private readonly host: McpvmHost,
    private readonly directory: ToolDirectory,
    private readonly settings: GatewaySettings,
  ) {}

  /** The catalogs of the servers this client may reach; the others are neither started nor named. */
  private async catalogs(context: CodeModeContext, only?: string): Promise<{ catalogs: readonly ServerCatalog[]; unavailable: ReadonlyArray<{ server: string; message: string }> }> {
    if (only !== undefined && !accessAllows(context.access, only)) {
      return { catalogs: [], unavailable: [{ server: only, message: `server "${only}" is not available to this gateway client` }] };
    }
    const found = await this.directory.catalogs({ signal: context.signal }, only, context.access === undefined ? undefined : (server) => accessAllows(context.access, server));
    return found;
  }

  /** See listingText: one server's declarations, a query's matching signatures, or every module compactly; a tool-limited client sees only its tools' signatures. */
  async listMcpTools(args: { server?: string | undefined; query?: string | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const { catalogs, unavailable } = await this.catalogs(context, args.server);
    const access = context.access;
    if (access?.tools === undefined) return textResult(`${await listingText(catalogs, args)}${unavailableLines(unavailable)}`);
    if (args.query === undefined || args.query.trim() === "") {
      return textResult(`${catalogs.map((c) => allowedSignatures(c, access)).join("\n\n") || "// No MCP tools are available."}${unavailableLines(unavailable)}`);
    }
    const lines = searchCatalogs(catalogs, args.query, 50)
      .filter(({ catalog, tool }) => accessAllows(access, catalog.server, tool.originalName))
      .map(({ catalog, tool }) => `// require("host:${catalog.module}") — ${firstSentence(tool.description)}\n${catalog.signature(tool)}`);
    return textResult(`${lines.join("\n\n") || `// No tool matches "${args.query}".`}${unavailableLines(unavailable)}`);
  }

  async searchTools(args: { query: string; limit?: number | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const { catalogs, unavailable } = await this.catalogs(context);
    const ranked = searchCatalogs(catalogs, args.query, context.access?.tools === undefined ? (args.limit ?? this.settings.searchLimit) : 1_000)
      .filter(({ catalog, tool }) => accessAllows(context.access, catalog.server, tool.originalName))
      .slice(0, args.limit ?? this.settings.searchLimit);
    return jsonResult({ ...searchAnswer(ranked), unavailable: unavailable.map((u) => u.message) });
  }

  async discoverAllTools(args: { server?: string | undefined }, context: CodeModeContext): Promise<CallToolResult> {
    const { catalogs, unavailable } = await this.catalogs(context, args.server);
    return jsonResult({
      servers: catalogs.map((catalog) => ({
        server: catalog.server,
        tools: catalog.tools.filter((t) => accessAllows(context.access, catalog.server, t.originalName)).map((t) => ({ tool: `${catalog.server}.${t.originalName}`, description: firstSentence(t.description, 300) })),
        held: (context.access === undefined ? catalog.held : []).map((h) => ({ tool: `${catalog.server}.${h.name}`, reason: h.reason })),
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
    const stopBeat = context.onProgress === undefined ? undefined : progressHeartbeat(context.onProgress, wallMs, this.settings.progressIntervalMs);
    const result = await this.host
      .run(args.script, {
        limits: { wallMs },
        signal: context.signal,
        filename: "run_mcp_script.js",
        ...(context.access === undefined ? {} : { mcpAccess: context.access }),
        ...(context.origin === undefined ? {} : { origin: context.origin }),
      })
      .finally(stopBeat);
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

/**
 * While a script runs, its client hears from it every `everyMs`: milliseconds of the wall budget
 * used (always increasing), of `wallMs`. A client that resets its request timeout on progress
 * (the MCP SDKs' resetTimeoutOnProgress) then waits for a script longer than that timeout.
 */
function progressHeartbeat(report: NonNullable<CodeModeContext["onProgress"]>, wallMs: number, everyMs: number): () => void {
  const started = performance.now();
  let last = 0;
  const timer = setInterval(() => {
    last = Math.max(last + 1, Math.round(performance.now() - started));
    report({ progress: last, total: wallMs, message: `run_mcp_script running for ${(last / 1000).toFixed(1).replace(/\.0$/, "")} s of its ${wallMs / 1000} s budget` });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
