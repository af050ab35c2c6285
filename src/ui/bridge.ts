import type { McpImportReport, McpMergeResult } from "../mcp/config/index.js";
import type { RunLimits } from "../sandbox/types.js";

/**
 * What the dashboard borrows from the CLI, handed in by `mcpvm ui` (src/cli may not be imported
 * from here): the parsing and validation of `mcpvm mcp add` arguments and the `--json` form of
 * an import report, so a server added or imported in the page gets exactly the CLI's checks,
 * messages and notes.
 */
export interface UiBridge {
  /** `mcpvm mcp add <args…>`: the config entry and the name it goes under, or the CLI's UsageError. */
  buildAddEntry(args: readonly string[], cwd: string, home: string): { readonly name: string; readonly entry: Record<string, unknown>; readonly notes: readonly string[] };
  /** `mcpvm mcp add`'s warning when the entry's command is not found (it is added anyway), else undefined. */
  missingCommandWarning(name: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, home: string): Promise<string | undefined>;
  /** `mcpvm mcp import --json`'s report. */
  importJson(outcome: { report: McpImportReport; merged: McpMergeResult; dryRun: boolean; typedPath: string }): Record<string, unknown>;
  /** `mcpvm run --timeout/--cpu/--memory/--output`: the same units, bounds and messages. */
  runLimits(values: Readonly<Record<string, string | undefined>>): Partial<RunLimits>;
}
