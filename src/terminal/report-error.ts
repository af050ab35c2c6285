import { isMcpvmError } from "../util/errors.js";
import { displayBlock } from "./display.js";
import { ExitCode, type ExitCodeValue } from "./exit-codes.js";
import type { CommandContext } from "./command.js";
import { writeJson, writeLine } from "./io.js";

const APPROVAL = /^(MCP_NOT_APPROVED|MCP_APPROVAL_CHANGED|PLUGIN_NOT_APPROVED|PLUGIN_APPROVAL_STALE|PLUGIN_CHANGED_DURING_APPROVAL|PLUGIN_NOT_ENABLED|MCP_PLUGIN_NOT_ENABLED|MCP_SERVER_DISABLED|MCP_CALL_DECLINED|MCP_TOOL_HELD|MCP_LAUNCH_ENV_UNCONFIRMED|MCP_LOGIN_REQUIRED|MCP_FLOW_DENIED|MCP_EXECUTABLE_CHANGED)$/;
// PLUGIN_LOAD_FAILED: the plugin's installed code or its config does not load (import or createHostFunctions threw,
// its private copy cannot be written); fixed by the person in the home (plugin config, reinstall, disable), not in the script.
const CONFIG = /^(CONFIG_|MCP_CONFIG_|MCP_IMPORT_|PLUGIN_MANIFEST_|PLUGIN_CONFIG_INVALID|PLUGIN_LOAD_FAILED|STORE_|PLUGIN_APPROVALS_|INVALID_LIMITS|GATEWAY_CONFIG_INVALID|GATEWAY_TOOLSET_INVALID|PROFILE_INVALID|PROFILE_SERVER_UNKNOWN|LLM_CONFIG_INVALID|AUDIT_LOG_|FILE_LOCK_FAILED)/;
// Checked first: a name the person typed that does not exist, or an argument that cannot be used, is
// a usage error (2) even when its code sits in a config family (MCP_CONFIG_SERVER_NOT_FOUND). A dashboard
// request the caller got wrong (a body that is not JSON, too large, a path that is not there) is 2 like the
// dashboard's own refusals (wrong token, wrong content type), not a script's failure (1).
const USAGE =
  /^(USAGE|GATEWAY_TOOLSET_UNKNOWN|GATEWAY_TOOLSET_IN_USE|GATEWAY_EXPOSE_UNKNOWN|GATEWAY_CLIENT_UNKNOWN|GATEWAY_CLIENT_EXISTS|MCP_SERVER_UNKNOWN|MCP_UNKNOWN_SERVER|MCP_CONFIG_SERVER_NOT_FOUND|MCP_CONFIG_SERVER_EXISTS|MCP_SERVER_ARGUMENT_INVALID|MCP_IMPORT_UNREADABLE|PLUGIN_NOT_FOUND|PROFILE_UNKNOWN|PROFILE_NONE_GIVEN|UI_BAD_REQUEST|UI_BODY_TOO_LARGE|UI_NOT_FOUND)$/;
// A budget the person set (or its default) was used up: exit 4 like the run's own *_LIMIT codes.
const LIMIT = /^(TOOL_CALL_LIMIT)$/;
// Ctrl-C at a question (CancelledError), like Ctrl-C during a run: 130.
const INTERRUPTED = /^CANCELLED$/;
// MCP_TRANSPORT_CLOSED: the server crashed or hung up mid-call (docs/USAGE.md: a server failure is 6, not the script's 1).
// UI_PORT_IN_USE and UI_ASSETS_MISSING: the dashboard cannot start, as serve on a taken port (GATEWAY_PORT_IN_USE) or the launcher without dist/.
// MCP_CALL_TIMEOUT: the server did not answer in time (a server failure, as MCP_TRANSPORT_CLOSED). FILE_LOCK_TIMEOUT:
// another mcpvm process held a state file's lock too long; FILE_LOCK_FAILED (3): the lock cannot be made in the home.
// TYPEGEN_SCHEMA_TOO_COMPLEX: a server's tool schema is beyond what can be typed (a server problem; normally its type degrades to unknown).
const UNAVAILABLE = /^(HYPERLIGHT_|TYPEGEN_SCHEMA_TOO_COMPLEX|ENGINE_|MCP_CONNECT|MCP_OAUTH_|MCP_SPAWN|MCP_SERVER_UNAVAILABLE|MCP_RECONNECT_LIMIT|MCP_TRANSPORT_CLOSED|MCP_CALL_TIMEOUT|FILE_LOCK_TIMEOUT|LLM_|GATEWAY_PORT_IN_USE|UI_PORT_IN_USE|UI_ASSETS_MISSING|GATEWAY_OAUTH_UNAVAILABLE)/;

/**
 * The error a person should see. A plugin that failed to load because of a config error (the mcp
 * plugin and a typo in mcpServers) is reported as that config error: its message names the file,
 * path and rule, and the exit code is 3, not the loader's wrapper around it.
 */
export function userFacingError(error: unknown): unknown {
  if (isMcpvmError(error) && error.code === "PLUGIN_LOAD_FAILED" && isMcpvmError(error.cause) && exitCodeFor(error.cause) === ExitCode.Config) return error.cause;
  return error;
}

/** Exit codes follow the error's stable code, never its message. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (!isMcpvmError(error)) return ExitCode.GuestError;
  const shown = userFacingError(error);
  if (shown !== error) return exitCodeFor(shown);
  if (USAGE.test(error.code)) return ExitCode.Usage;
  if (APPROVAL.test(error.code)) return ExitCode.ApprovalRequired;
  if (CONFIG.test(error.code)) return ExitCode.Config;
  if (UNAVAILABLE.test(error.code)) return ExitCode.Unavailable;
  if (LIMIT.test(error.code)) return ExitCode.Limit;
  if (INTERRUPTED.test(error.code)) return ExitCode.Interrupted;
  return ExitCode.GuestError;
}

export function reportError(context: CommandContext, thrown: unknown): ExitCodeValue {
  const error = userFacingError(thrown);
  const code = isMcpvmError(error) ? error.code : "INTERNAL";
  const message = error instanceof Error ? error.message : String(error);
  if (context.json) writeJson(context.io.stdout, { ok: false, error: { code, message } });
  // Messages can quote config and server text (names, paths, a tool's error): escaped on a terminal.
  else writeLine(context.io.stderr, `${context.colours.red("error")} ${context.colours.dim(`[${code}]`)} ${displayBlock(message)}`);
  if (!isMcpvmError(error) && error instanceof Error && context.io.env.MCPVM_DEBUG) writeLine(context.io.stderr, error.stack ?? "");
  return exitCodeFor(error);
}
