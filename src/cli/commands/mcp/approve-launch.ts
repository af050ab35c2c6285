import { auditLaunchEnv, type LaunchFinding } from "../../../mcp/approval/index.js";
import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { writeLine } from "../../../terminal/io.js";
import { noTerminalHint } from "../../../terminal/hints.js";
import { confirm } from "../../../terminal/prompt.js";
import { typedConfirmation } from "./typed-confirmation.js";

export interface LaunchOutcome {
  readonly state: "approved" | "already-approved" | "not-approved";
  /** The launch audit: code-loading env variables the definition sets. */
  readonly findings: readonly LaunchFinding[];
  /** For not-approved: why, and what to run. */
  readonly reason?: string;
}

/**
 * The launch definition's approval. A definition that sets code-loading variables (NODE_OPTIONS,
 * LD_PRELOAD, …) is never approved by a plain yes: it takes --accept-launch-env (besides --yes
 * or a y), or the server name typed on a terminal.
 */
export async function approveLaunch(service: McpService, name: string, acceptLaunchEnv: boolean, context: CommandContext): Promise<LaunchOutcome> {
  const err = context.io.stderr;
  const findings = auditLaunchEnv(service.entry(name).env);
  const status = await service.approvalStatus(name);
  if (status.state === "approved") return { state: "already-approved", findings };
  writeLine(err, await service.approvalPrompt(name));
  const gated = findings.length > 0 && !acceptLaunchEnv;
  if (gated && context.interactive) {
    const typed = await typedConfirmation(context, name, `It sets ${findings.map((f) => f.name).join(", ")}. Type the server name (${name}) to approve it, anything else declines:`);
    if (!typed) return { state: "not-approved", findings, reason: "declined: the server name was not typed" };
  } else if (gated) {
    const reason = `it sets ${findings.map((f) => f.name).join(", ")}, which change${findings.length === 1 ? "s" : ""} which code runs, so --yes alone does not approve it; if you expect this, ${context.face === "repl" ? `approve it with \`/mcp approve ${name} --accept-launch-env\`` : `rerun with \`mcpvm mcp approve ${name} --accept-launch-env\` (and --yes without a terminal)`}`;
    return { state: "not-approved", findings, reason };
  } else if (!(await confirm(context, `Approve MCP server "${name}"?`))) {
    return { state: "not-approved", findings, reason: context.interactive ? "declined" : `no terminal to ask on; ${noTerminalHint(context, `mcp approve ${name}`, "approve it unattended")}` };
  }
  await service.approve(name, { acceptLaunchEnv: findings.length > 0 });
  return { state: "approved", findings };
}
