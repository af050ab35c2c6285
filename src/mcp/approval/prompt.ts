import type { ApprovalSubject } from "./hash.js";

export const NOT_SANDBOXED_WARNING =
  "This server runs as an ordinary OS process (or remote service) with YOUR permissions. The mcpvm sandbox isolates guest code, not MCP servers.";

/**
 * The text shown before a server may start: the command and args verbatim, env names with values
 * fully masked, the URL and header names. One function, so the CLI, the REPL and the model-facing
 * refusal all show exactly the same thing.
 */
export function renderApprovalPrompt(subject: ApprovalSubject, hash: string): string {
  const lines = [`MCP server "${subject.name}" (${subject.transport}) asks to be approved.`];
  if (subject.transport === "stdio") {
    lines.push(`  command: ${JSON.stringify(subject.command ?? "")}`);
    lines.push(`  args:    ${JSON.stringify(subject.args ?? [])}`);
    if (subject.cwd !== undefined) lines.push(`  cwd:     ${JSON.stringify(subject.cwd)}`);
    const env = Object.keys(subject.env ?? {}).sort();
    lines.push(`  env:     ${env.length === 0 ? "(none)" : env.map((k) => `${k}=****`).join(" ")}`);
  } else {
    lines.push(`  url:     ${subject.url ?? ""}`);
    const headers = Object.keys(subject.headers ?? {}).sort();
    lines.push(`  headers: ${headers.length === 0 ? "(none)" : headers.map((k) => `${k}: ****`).join(", ")}`);
  }
  if (subject.allowTools !== undefined) lines.push(`  allowTools: ${subject.allowTools.join(", ")}`);
  if (subject.denyTools !== undefined) lines.push(`  denyTools:  ${subject.denyTools.join(", ")}`);
  lines.push(`  confirm:   ${describeConfirm(subject.confirm ?? "destructive")}`);
  lines.push(`  definition hash: ${hash.slice(0, 16)}…`);
  lines.push("");
  lines.push(`WARNING: ${NOT_SANDBOXED_WARNING}`);
  return lines.join("\n");
}

function describeConfirm(mode: "never" | "destructive" | "always"): string {
  if (mode === "never") return "never — calls run without asking, even tools that change or delete things";
  if (mode === "always") return "always — every call is confirmed";
  return "destructive — calls to tools not marked read-only are confirmed";
}
