import type { McpImportReport, McpMergeResult } from "../../../mcp/config/index.js";
import { displayInline } from "../../../terminal/display.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeLine, type CliIo, type Colours } from "../../../terminal/io.js";
import { maskedEntry } from "../../../terminal/render/mcp.js";

/** What `mcpvm mcp import` tells a person and a script: everything added, renamed, kept out, and why. */
export interface ImportOutcome {
  readonly report: McpImportReport;
  readonly merged: McpMergeResult;
  readonly dryRun: boolean;
  /** The path as the user typed it, for the `--only` hint. */
  readonly typedPath: string;
}

/**
 * 3 (config) when something the file asked for is not in config.json afterwards for a reason other
 * than being invalid (a conflict, the server limit), or when nothing at all came in because every
 * server was skipped; otherwise 0. Skipping a few invalid entries beside good ones is not a failure.
 */
export function importExitCode({ report, merged }: ImportOutcome): ExitCodeValue {
  if (merged.conflicts.length > 0 || merged.leftOut.length > 0) return ExitCode.Config;
  const brought = merged.added.length + merged.overwritten.length + merged.unchanged.length;
  return brought === 0 && report.skipped.length > 0 ? ExitCode.Config : ExitCode.Ok;
}

/** The --json record: secret values masked as `mcp add --json` and `mcp info --json` do. */
export function importJson({ report, merged, dryRun }: ImportOutcome): Record<string, unknown> {
  const written = [...merged.added, ...merged.overwritten];
  return {
    file: report.file,
    format: report.format,
    dryRun,
    added: merged.added,
    overwritten: merged.overwritten,
    unchanged: merged.unchanged,
    conflicts: merged.conflicts,
    leftOut: merged.leftOut,
    renames: report.renames,
    skipped: report.skipped,
    notSelected: report.notSelected,
    warnings: report.warnings,
    secrets: report.secrets,
    servers: Object.fromEntries(written.flatMap((name) => (report.servers[name] === undefined ? [] : [[name, maskedEntry(report.servers[name])]]))),
  };
}

const list = (names: readonly string[]): string => (names.length === 0 ? "none" : names.map(displayInline).join(", "));

export function writeImportReport(io: CliIo, colours: Colours, outcome: ImportOutcome): void {
  const { report, merged, dryRun } = outcome;
  const out = io.stdout;
  const warn = (text: string): void => writeLine(io.stderr, colours.yellow(`  ${text}`));
  const note = (text: string): void => writeLine(io.stderr, colours.dim(`  ${text}`));
  if (dryRun) {
    writeLine(out, `Dry run, nothing was written. Importing ${displayInline(report.file)} (${report.format} format) would:`);
    writeLine(out, `  add: ${list(merged.added)}; overwrite: ${list(merged.overwritten)}; leave unchanged: ${list(merged.unchanged)}`);
  } else {
    writeLine(out, `Imported from ${displayInline(report.file)} (${report.format} format):`);
    writeLine(out, `  added: ${list(merged.added)}; overwritten: ${list(merged.overwritten)}; unchanged: ${list(merged.unchanged)}`);
  }
  for (const r of report.renames) writeLine(out, `  renamed ${displayInline(r.from)} -> ${r.to} (${displayInline(r.reason)})`);
  for (const c of merged.conflicts) warn(`conflict ${c.name}: ${displayInline(c.reason)}`);
  for (const s of report.skipped) warn(`skipped ${displayInline(s.name)}: ${displayInline(s.reason)}`);
  if (merged.leftOut.length > 0) {
    warn(`left out ${list(merged.leftOut.map((l) => l.name))}: ${merged.leftOut[0]?.reason ?? ""}`);
    warn(`choose which to import with --only: mcpvm mcp import ${displayInline(outcome.typedPath)} --only ${merged.leftOut.map((l) => l.name).join(",")}`);
    warn("(or make room first: mcpvm mcp remove <name>)");
  }
  if (report.notSelected.length > 0) note(`not selected by --only: ${list(report.notSelected)}`);
  for (const w of report.warnings) note(`note ${w.name || "(file)"}: ${displayInline(w.message)}`);
  for (const s of report.secrets) warn(`secret ${s.name}: ${displayInline(s.message)}`);
  const brought = merged.added.length + merged.overwritten.length + merged.unchanged.length;
  if (brought === 0 && report.skipped.length > 0) writeLine(io.stderr, colours.yellow(`Nothing was imported: every server ${dryRun ? "would be" : "was"} skipped (reasons above).`));
  if (dryRun) writeLine(out, "Run the same command without --dry-run to write config.json.");
  else if (merged.added.length + merged.overwritten.length > 0) writeLine(out, "Imported servers start only after `mcpvm mcp approve <name>`.");
}
