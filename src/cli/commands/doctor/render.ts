import { displayBlock, displayInline } from "../../../terminal/display.js";
import type { Colours } from "../../../terminal/io.js";
import { ago } from "../../../terminal/render/server-state.js";
import type { DoctorReport } from "./report.js";
import { counted } from "../../../util/counted.js";

type ServerRow = DoctorReport["servers"][number];

function serverStatus(server: ServerRow, colours: Colours): string {
  if (!server.enabled) return colours.dim("disabled");
  const connect = server.connect;
  if (connect !== undefined) {
    if (!connect.ok) return colours.red(`✗ failed (${connect.ms} ms)`);
    const held = connect.heldCount ? colours.yellow(`, ${connect.heldCount} held`) : "";
    return `${colours.green("✓ connected")}, ${connect.toolCount} tools${held} (${connect.ms} ms)`;
  }
  const last = server.lastConnect;
  if (last === undefined) return colours.dim("never started with this definition");
  return last.result === "connected" ? `last connected ${ago(last.at)}, ${last.toolCount ?? 0} tools` : colours.red(`last start failed ${ago(last.at)}`);
}

function renderProblems(report: DoctorReport, colours: Colours): string[] {
  if (report.problems.length === 0) return [colours.green("No problems found.")];
  const errors = report.problems.filter((p) => p.severity === "error").length;
  const warnings = report.problems.length - errors;
  const lines = [colours.bold(`${counted(errors, "problem")}${warnings > 0 ? `, ${counted(warnings, "warning")}` : ""}:`)];
  for (const p of report.problems) {
    const mark = p.severity === "error" ? colours.red("✗") : colours.yellow("!");
    const [first = "", ...rest] = displayBlock(p.message).split("\n");
    lines.push(`  ${mark} ${displayInline(p.subject)}: ${first}`);
    for (const line of rest) lines.push(`      ${line}`);
    if (p.next !== undefined) lines.push(colours.dim(`      → ${displayInline(p.next)}`));
  }
  return lines;
}

export function renderDoctor(report: DoctorReport, colours: Colours): string {
  const { bold, green, yellow, red } = colours;
  const lines: string[] = [bold("mcpvm doctor")];
  lines.push(`  node        ${report.node} on ${report.platform}`);
  const engine = report.engine;
  lines.push(`  engine      ${engine.chosen === undefined ? red(`cannot start: ${engine.error ?? "unknown"}`) : green(engine.chosen)} (requested ${engine.requested})`);
  lines.push(`  hyperlight  ${engine.hyperlight.boots ? green("boots") : yellow(`unavailable: ${engine.hyperlight.reason ?? "unknown"}`)}`);
  const paths = report.paths;
  lines.push(`  home        ${paths.home}`);
  lines.push(`  config      ${paths.configFile}`);
  lines.push(`  approvals   ${paths.approvedPluginsFile}, ${paths.approvedMcpFile}`);
  lines.push(`  pins        ${paths.pinsFile}`);
  lines.push(`  logs        ${paths.logsDir} (written at --log-level debug)`);
  const l = report.limits;
  if (l !== undefined) lines.push(`  limits      cpu ${l.cpuMs} ms, wall ${l.wallMs} ms, memory ${Math.round(l.memoryBytes / 2 ** 20)} MB, output ${Math.round(l.outputBytes / 1024)} KB`);
  lines.push(`  plugins     ${report.plugins.map((p) => `${displayInline(p.name)} (${p.state}${p.loadError === undefined ? "" : red(", does not load")})`).join(", ") || "none"}`);
  const enabled = report.servers.filter((s) => s.enabled).length;
  const configured = report.configuredServers;
  const mcpText = report.mcp.state === "on" ? green("on") : report.mcp.state === "off" ? yellow(`off: ${report.mcp.detail}`) : red(`broken: ${report.mcp.detail}`);
  lines.push(`  mcp         ${mcpText}; ${counted(configured, "server")} configured${configured === report.servers.length ? `, ${enabled} enabled` : `, ${report.servers.length} valid`}`);
  const width = Math.max(0, ...report.servers.map((s) => displayInline(s.name).length));
  for (const server of report.servers) {
    const approval = server.approval === "approved" ? "approved" : yellow(server.approval === "unapproved" ? "not approved" : server.approval);
    lines.push(`    ${displayInline(server.name).padEnd(width)}  ${server.transport.padEnd(5)}  ${approval}  ${serverStatus(server, colours)}`);
  }
  lines.push(`  llm         ${report.llm.configured ? green(report.llm.detail) : yellow(report.llm.detail)}`);
  lines.push("", ...renderProblems(report, colours));
  return lines.join("\n");
}
