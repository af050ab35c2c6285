import { shownConfigValue } from "../../mcp/approval/index.js";
import type { McpServerEntry } from "../../mcp/config/index.js";
import type { ServerCatalog, ServerSummary } from "../../mcp/service/index.js";
import { describeHeld } from "../../mcp/service/index.js";
import { renderEvidence } from "../../mcp/audit/index.js";
import { displayInline } from "../display.js";
import { stateCell, stateNotes } from "./server-state.js";
import type { Colours } from "../io.js";
import { formatTable } from "../io.js";

// Every string below that came from config.json or a server is escaped before it is coloured:
// an escape sequence in a description or tool name must not repaint the lines around it.
const show = displayInline;

export function renderServerList(list: readonly ServerSummary[], colours: Colours): string {
  if (list.length === 0) return "No MCP servers configured. Add one with `mcpvm mcp add <name>` (see `mcpvm mcp add --help`) or `mcpvm mcp import <file>`.";
  const approval = (s: ServerSummary) =>
    s.approval === "approved" ? colours.green("approved") : s.approval === "changed" ? colours.yellow("changed") : s.approval === "error" ? colours.red("error") : colours.yellow("not approved");
  const rows = list.map((s) => [
    show(s.name),
    s.transport,
    stateCell(s, colours),
    approval(s),
    s.toolCount === undefined ? colours.dim("-") : `${s.toolCount}${s.heldCount ? colours.yellow(` (+${s.heldCount} held)`) : ""}`,
    show(s.description ?? ""),
  ]);
  const table = formatTable(rows, ["NAME", "TRANSPORT", "STATE", "APPROVAL", "TOOLS", "DESCRIPTION"].map((h) => colours.bold(h)));
  const notes = stateNotes(list, colours);
  return notes.length === 0 ? table : `${table}\n\n${notes.join("\n")}`;
}

/**
 * The configured definition as shown and returned by `mcp info`/`mcp add`: secret env and header
 * values masked (shownConfigValue), pure `${VAR}` references (not secrets), code-loading variables
 * (NODE_OPTIONS, LD_PRELOAD, …: what code runs must be visible) and values that are not secret shown.
 * Raw strings: text output escapes them on print.
 */
export function maskedEntry(entry: McpServerEntry): Record<string, unknown> {
  const mask = (record: Readonly<Record<string, string>> | undefined, kind: "env" | "header") =>
    record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unquoted(shownConfigValue(k, v, kind))]));
  return {
    ...entry,
    ...(entry.env === undefined ? {} : { env: mask(entry.env, "env") }),
    ...(entry.headers === undefined ? {} : { headers: mask(entry.headers, "header") }),
  };
}

/** shownConfigValue quotes verbatim values for a prompt line; inside JSON they are plain strings. */
function unquoted(shown: string): string {
  return shown.startsWith('"') ? (JSON.parse(shown) as string) : shown;
}

export function renderCatalog(catalog: ServerCatalog, colours: Colours): string {
  const lines: string[] = [colours.bold(`Tools (${catalog.tools.length}) — module host:${show(catalog.module)}`)];
  for (const tool of catalog.tools) {
    lines.push(`  ${show(catalog.signature(tool))}`);
    if (tool.jsName !== tool.originalName) lines.push(colours.dim(`      (MCP name: ${show(tool.originalName)})`));
  }
  if (catalog.held.length > 0) {
    lines.push(colours.yellow(colours.bold(`Held tools (${catalog.held.length}) — not visible to guest code or the model`)));
    for (const held of catalog.held) {
      lines.push(`  ${colours.yellow(show(held.name))}: ${show(describeHeld(catalog.server, held))}`);
      for (const f of held.findings) lines.push(`      ${f.severity} ${show(f.rule)} at ${show(f.location.jsonPath)}: ${show(renderEvidence(f.evidence))}`);
      for (const c of held.changes) lines.push(`      ${show(c.path)}:\n        - ${show(c.before)}\n        + ${show(c.after)}`);
    }
  }
  if (catalog.heldInstructions !== undefined) {
    const { findings, changed } = catalog.heldInstructions;
    const why = [...(findings.length > 0 ? ["audit findings"] : []), ...(changed ? ["changed since the server was approved"] : [])].join(", ");
    lines.push(colours.yellow(`  server instructions not given to the model (${why})`));
    for (const f of findings) lines.push(`      ${f.severity} ${show(f.rule)} at ${show(f.location.jsonPath)}: ${show(renderEvidence(f.evidence))}`);
  }
  for (const d of catalog.dropped) lines.push(colours.yellow(`  dropped ${show(d.name)}: ${show(d.message)}`));
  if (catalog.hiddenByFilters.length > 0) lines.push(colours.dim(`  hidden by allowTools/denyTools: ${catalog.hiddenByFilters.map(show).join(", ")}`));
  if (catalog.unmatchedFilters.length > 0) lines.push(colours.yellow(`  filter names that match no tool: ${catalog.unmatchedFilters.map(show).join(", ")}`));
  if (catalog.names.renamed.length > 0) lines.push(colours.dim(`  renamed for JavaScript: ${catalog.names.renamed.map((r) => `${show(r.original)} -> ${show(r.jsName)}`).join(", ")}`));
  return lines.join("\n");
}
