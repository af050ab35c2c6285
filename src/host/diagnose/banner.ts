import { diagnoseHome, type DiagnoseOptions, type Diagnosis } from "./index.js";

const SHOWN = 3;

/**
 * The REPL banner's MCP lines, from the same diagnosis as `mcpvm doctor`: "on" with the enabled
 * servers, or "off" with the real reason (a config typo, a corrupt approvals file, the plugin not
 * enabled), then the first few errors with what to run.
 */
export function bannerLines(diagnosis: Diagnosis, enabledServers: readonly string[] | undefined, refusal?: string): { headline: string; problems: string[] } {
  const errors = diagnosis.problems.filter((p) => p.severity === "error" && p.subject !== "mcp plugin");
  let headline: string;
  if (enabledServers !== undefined) headline = `MCP: on; servers enabled: ${enabledServers.join(", ") || "none"}`;
  else if (diagnosis.mcp.state === "on") headline = `MCP: off, because the mcp plugin did not load: ${refusal ?? "unknown reason"}`;
  else if (diagnosis.mcp.state === "off") headline = `MCP: off (${diagnosis.mcp.detail}; enable it with /plugin approve mcp, then /plugin enable mcp)`;
  else headline = `MCP: off, because ${diagnosis.mcp.detail}`;
  const lines = errors.slice(0, SHOWN).map((p) => `  ✗ ${named(p)}${p.next === undefined ? "" : ` → ${p.next}`}`);
  if (errors.length > SHOWN) lines.push(`  … and ${errors.length - SHOWN} more: run \`mcpvm doctor\``);
  else if (errors.length > 0) lines.push("  (`mcpvm doctor` checks everything and says what to run)");
  return { headline, problems: lines };
}

/** A problem's first line, with its server's name when the message does not say it ("command … is not found on PATH"), as doctor shows it. */
function named(problem: Diagnosis["problems"][number]): string {
  const first = problem.message.split("\n", 1)[0] ?? "";
  const server = /^server (.+)$/.exec(problem.subject)?.[1];
  // As a word: a server called "a" is not named by every message with an "a" in it. Names are [a-z][a-z0-9-]*.
  return server === undefined || new RegExp(`(^|[^a-z0-9-])${server}($|[^a-z0-9-])`).test(first) ? first : `${problem.subject}: ${first}`;
}

/** The banner for an open host: its paths and plugin manager, the environment it runs with, and its MCP servers if the mcp plugin loaded. */
export async function mcpBanner(
  host: { readonly paths: DiagnoseOptions["paths"]; readonly plugins: NonNullable<DiagnoseOptions["plugins"]>; mcpServers(): { enabledServers(): string[] } | undefined },
  env: DiagnoseOptions["env"],
  refusal?: string,
): Promise<{ headline: string; problems: string[] }> {
  const diagnosis = await diagnoseHome({ paths: host.paths, env, plugins: host.plugins });
  return bannerLines(diagnosis, host.mcpServers()?.enabledServers(), refusal);
}
