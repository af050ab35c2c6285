import type { McpService } from "../../mcp/service/index.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { problem, type Problem, type ProblemKind } from "./problem.js";
import { counted } from "../../util/counted.js";

export interface ConnectResult {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly toolCount?: number;
  readonly heldCount?: number;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface ConnectCheckOptions {
  /** Starts at once; below the live-connection cap so a check never evicts its own servers. */
  readonly concurrency?: number;
  readonly onStart?: (name: string) => void;
  readonly onDone?: (result: ConnectResult) => void;
}

/**
 * Start each server (approval, spawn, initialize, tools/list, trust decision) and report ✓ or ✗,
 * as `claude mcp list` does. The results are recorded in server-status.json like any connect.
 */
export async function connectCheck(service: McpService, names: readonly string[], options: ConnectCheckOptions = {}): Promise<ConnectResult[]> {
  const results = new Map<string, ConnectResult>();
  const queue = [...names];
  const worker = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      options.onStart?.(name);
      const started = performance.now();
      let result: ConnectResult;
      try {
        const catalog = await service.catalog(name);
        result = { name, ok: true, ms: Math.round(performance.now() - started), toolCount: catalog.tools.length, heldCount: catalog.held.length };
      } catch (error) {
        result = { name, ok: false, ms: Math.round(performance.now() - started), error: { code: isMcpvmError(error) ? error.code : "INTERNAL", message: errorMessage(error) } };
      }
      results.set(name, result);
      options.onDone?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, names.length)) }, worker));
  return names.map((name) => results.get(name) as ConnectResult);
}

function kindOf(code: string): ProblemKind {
  if (/^(MCP_NOT_APPROVED|MCP_APPROVAL_CHANGED|MCP_LAUNCH_ENV_|MCP_TOOL_HELD)/.test(code)) return "approval";
  if (/^(MCP_CONFIG_|CONFIG_|STORE_)/.test(code)) return "config";
  return "unavailable";
}

/** Doctor's problems from a connect check: a failed start is an error, held tools a warning. */
export function connectProblems(results: readonly ConnectResult[]): Problem[] {
  return results.flatMap((r): Problem[] => {
    if (!r.ok && r.error !== undefined) return [problem("error", kindOf(r.error.code), `server ${r.name}`, r.error.message, `mcpvm mcp info ${r.name}`, r.error.code)];
    if ((r.heldCount ?? 0) > 0) return [problem("warning", "approval", `server ${r.name}`, `${counted(r.heldCount ?? 0, "tool")} of ${r.name} ${r.heldCount === 1 ? "is" : "are"} held for review and hidden from guest code`, `mcpvm mcp approve ${r.name} --tools`, "MCP_TOOL_HELD")];
    return [];
  });
}
