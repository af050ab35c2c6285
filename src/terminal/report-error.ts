import { isMcpvmError } from "../util/errors.js";
import { displayBlock } from "./display.js";
import { ExitCode, type ExitCodeValue } from "./exit-codes.js";
import type { CommandContext } from "./command.js";
import { writeJson, writeLine } from "./io.js";

const APPROVAL = /^(MCP_NOT_APPROVED|MCP_APPROVAL_CHANGED|PLUGIN_NOT_APPROVED|PLUGIN_APPROVAL_STALE|MCP_PLUGIN_NOT_ENABLED|MCP_SERVER_DISABLED|MCP_CALL_DECLINED|MCP_TOOL_HELD|MCP_LAUNCH_ENV_UNCONFIRMED)$/;
const CONFIG = /^(CONFIG_|MCP_CONFIG_|PLUGIN_MANIFEST_|PLUGIN_CONFIG_INVALID|STORE_|PLUGIN_APPROVALS_|INVALID_LIMITS|GATEWAY_CONFIG_INVALID)/;
const USAGE = /^(USAGE|GATEWAY_TOOLSET_UNKNOWN)$/;
const UNAVAILABLE = /^(HYPERLIGHT_|ENGINE_|MCP_CONNECT|MCP_SPAWN|MCP_SERVER_UNAVAILABLE|MCP_RECONNECT_LIMIT|LLM_)/;

/** Exit codes follow the error's stable code, never its message. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (!isMcpvmError(error)) return ExitCode.GuestError;
  if (USAGE.test(error.code)) return ExitCode.Usage;
  if (APPROVAL.test(error.code)) return ExitCode.ApprovalRequired;
  if (CONFIG.test(error.code)) return ExitCode.Config;
  if (UNAVAILABLE.test(error.code)) return ExitCode.Unavailable;
  return ExitCode.GuestError;
}

export function reportError(context: CommandContext, error: unknown): ExitCodeValue {
  const code = isMcpvmError(error) ? error.code : "INTERNAL";
  const message = error instanceof Error ? error.message : String(error);
  if (context.json) writeJson(context.io.stdout, { ok: false, error: { code, message } });
  // Messages can quote config and server text (names, paths, a tool's error): escaped on a terminal.
  else writeLine(context.io.stderr, `${context.colours.red("error")} ${context.colours.dim(`[${code}]`)} ${displayBlock(message)}`);
  if (!isMcpvmError(error) && error instanceof Error && context.io.env.MCPVM_DEBUG) writeLine(context.io.stderr, error.stack ?? "");
  return exitCodeFor(error);
}
