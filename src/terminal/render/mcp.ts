import type { McpServerEntry } from "../../mcp/config/index.js";
import type { ServerCatalog, ServerSummary } from "../../mcp/service/index.js";
import { describeHeld } from "../../mcp/service/index.js";
import { renderEvidence } from "../../mcp/audit/index.js";
import type { Colours } from "../io.js";
import { formatTable } from "../io.js";

export function renderServerList(list: readonly ServerSummary[], colours: Colours): string {
  if (list.length === 0) return "No MCP servers configured. Add one with `mcpvm mcp add <name>` (see `mcpvm mcp add --help`) or `mcpvm mcp import <file>`.";
  const approval = (s: ServerSummary) =>
    s.approval === "approved" ? colours.green("approved") : s.approval === "changed" ? colours.yellow("changed") : s.approval === "error" ? colours.red("error") : colours.yellow("not approved");
  const rows = list.map((s) => [
    s.name,
    s.transport,
    s.enabled ? s.state : colours.dim("disabled"),
    approval(s),
    s.toolCount === undefined ? colours.dim("-") : `${s.toolCount}${s.heldCount ? colours.yellow(` (+${s.heldCount} held)`) : ""}`,
    s.description ?? "",
  ]);
  return formatTable(rows, ["NAME", "TRANSPORT", "STATE", "APPROVAL", "TOOLS", "DESCRIPTION"].map((h) => colours.bold(h)));
}

/** The configured definition with every env and header value masked. */
export function maskedEntry(entry: McpServerEntry): Record<string, unknown> {
  const mask = (record: Readonly<Record<string, string>> | undefined) => (record === undefined ? undefined : Object.fromEntries(Object.keys(record).map((k) => [k, "****"])));
  return { ...entry, ...(entry.env === undefined ? {} : { env: mask(entry.env) }), ...(entry.headers === undefined ? {} : { headers: mask(entry.headers) }) };
}

export function renderCatalog(catalog: ServerCatalog, colours: Colours): string {
  const lines: string[] = [colours.bold(`Tools (${catalog.tools.length}) — module host:${catalog.module}`)];
  for (const tool of catalog.tools) {
    lines.push(`  ${catalog.signature(tool)}`);
    if (tool.jsName !== tool.originalName) lines.push(colours.dim(`      (MCP name: ${tool.originalName})`));
  }
  if (catalog.held.length > 0) {
    lines.push(colours.yellow(colours.bold(`Held tools (${catalog.held.length}) — not visible to guest code or the model`)));
    for (const held of catalog.held) {
      lines.push(`  ${colours.yellow(held.name)}: ${describeHeld(catalog.server, held)}`);
      for (const f of held.findings) lines.push(`      ${f.severity} ${f.rule} at ${f.location.jsonPath}: ${renderEvidence(f.evidence)}`);
      for (const c of held.changes) lines.push(`      ${c.path}:\n        - ${c.before}\n        + ${c.after}`);
    }
  }
  for (const d of catalog.dropped) lines.push(colours.yellow(`  dropped ${d.name}: ${d.message}`));
  if (catalog.hiddenByFilters.length > 0) lines.push(colours.dim(`  hidden by allowTools/denyTools: ${catalog.hiddenByFilters.join(", ")}`));
  if (catalog.unmatchedFilters.length > 0) lines.push(colours.yellow(`  filter names that match no tool: ${catalog.unmatchedFilters.join(", ")}`));
  if (catalog.names.renamed.length > 0) lines.push(colours.dim(`  renamed for JavaScript: ${catalog.names.renamed.map((r) => `${r.original} -> ${r.jsName}`).join(", ")}`));
  return lines.join("\n");
}
