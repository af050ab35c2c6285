import { resolve } from "node:path";
import type { McpvmHost } from "../../../host/index.js";
import { DEFAULT_NATIVE_PLUGIN_NAMES, importMcpServers, readImportFile, type McpImportReport } from "../../../mcp/config/index.js";
import type { McpService } from "../../../mcp/service/index.js";
import { UsageError } from "../../../terminal/args.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayInline } from "../../../terminal/display.js";
import type { ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson } from "../../../terminal/io.js";
import { didYouMean } from "../../../util/suggest.js";
import { importExitCode, importJson, writeImportReport } from "./import-report.js";

const MCP_STORE = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };

/** `--only a,b` (or `--only a --only b`): the names, or undefined when the flag is absent. */
function onlyNames(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const given = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
  const names = given.flatMap((item) => item.split(",")).map((name) => name.trim());
  if (names.length === 0 || names.some((name) => name === "")) {
    throw new UsageError("USAGE", "mcp import: --only takes server names separated by commas, e.g. --only github,memory. See `mcpvm mcp --help`.");
  }
  return names;
}

function unmatched(report: McpImportReport): UsageError {
  const file = displayInline(report.file);
  const suggestion = (name: string): string => {
    const hint = didYouMean(name, report.selectableNames).replace(/^; /, "");
    return hint === "" ? "" : ` (${hint})`;
  };
  const problems = report.unmatchedOnly.map((name) => `no server "${displayInline(name)}" in ${file}${suggestion(name)}`);
  const known = report.selectableNames.length === 0 ? "The file has no servers." : `The file has: ${report.selectableNames.map(displayInline).join(", ")}.`;
  return new UsageError("USAGE", `mcp import --only: ${problems.join("; ")}. ${known} Nothing was written.`);
}

/** `mcpvm mcp import <file>`: another client's config merged into config.json, with a report. */
export async function importCommand(
  host: McpvmHost,
  _service: McpService,
  path: string,
  values: Readonly<Record<string, unknown>>,
  context: CommandContext,
): Promise<ExitCodeValue> {
  const only = onlyNames(values.only);
  const dryRun = values["dry-run"] === true;
  const report = await readImportFile(resolve(context.io.cwd, path), { ...MCP_STORE, ...(only === undefined ? {} : { only }) });
  if (report.unmatchedOnly.length > 0) throw unmatched(report);
  const merged = await importMcpServers(host.paths.configFile, report, { ...MCP_STORE, overwrite: values.overwrite === true, dryRun });
  if (!dryRun && merged.added.length + merged.overwritten.length > 0) await host.reload();
  const outcome = { report, merged, dryRun, typedPath: path };
  if (context.json) writeJson(context.io.stdout, importJson(outcome));
  else writeImportReport(context.io, context.colours, outcome);
  return importExitCode(outcome);
}
