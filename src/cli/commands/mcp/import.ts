import { resolve } from "node:path";
import type { McpvmHost } from "../../../host/index.js";
import { DEFAULT_NATIVE_PLUGIN_NAMES, importMcpServers, readImportFile } from "../../../mcp/config/index.js";
import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";

const MCP_STORE = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };

/** `mcpvm mcp import <file>`: another client's config merged into config.json, with a report. */
export async function importCommand(
  host: McpvmHost,
  _service: McpService,
  path: string,
  values: Readonly<Record<string, unknown>>,
  context: CommandContext,
): Promise<ExitCodeValue> {
  const configFile = host.paths.configFile;
  const file = resolve(context.io.cwd, path);
  const report = await readImportFile(file, MCP_STORE);
  const merged = await importMcpServers(configFile, report, { ...MCP_STORE, overwrite: values.overwrite === true });
  await host.reload();
  if (context.json) writeJson(context.io.stdout, { format: report.format, ...merged, renames: report.renames, skipped: report.skipped, warnings: report.warnings });
  else {
    const out = context.io.stdout;
    writeLine(out, `Imported from ${file} (${report.format} format):`);
    writeLine(out, `  added: ${merged.added.join(", ") || "none"}; overwritten: ${merged.overwritten.join(", ") || "none"}; unchanged: ${merged.unchanged.join(", ") || "none"}`);
    for (const r of report.renames) writeLine(out, `  renamed ${r.from} -> ${r.to} (${r.reason})`);
    for (const c of merged.conflicts) writeLine(context.io.stderr, context.colours.yellow(`  conflict ${c.name}: ${c.reason}`));
    for (const s of report.skipped) writeLine(context.io.stderr, context.colours.yellow(`  skipped ${s.name}: ${s.reason}`));
    for (const w of report.warnings) writeLine(context.io.stderr, context.colours.dim(`  note ${w.name || "(file)"}: ${w.message}`));
    if (merged.added.length + merged.overwritten.length > 0) writeLine(out, "Imported servers start only after `mcpvm mcp approve <name>`.");
  }
  return merged.conflicts.length > 0 ? ExitCode.Config : ExitCode.Ok;
}
