import { McpvmError } from "../util/errors.js";

/**
 * Every failure the plugin system reports. Callers (CLI, REPL, tests) branch on `code`; the message
 * names the plugin, the file and what to run next.
 */
export type PluginErrorCode =
  | "PLUGIN_MANIFEST_UNREADABLE"
  | "PLUGIN_MANIFEST_INVALID_JSON"
  | "PLUGIN_MANIFEST_INVALID"
  | "PLUGIN_NAME_MISMATCH"
  | "PLUGIN_SHADOWS_NATIVE"
  | "PLUGIN_NATIVE_FLAG_FORBIDDEN"
  | "PLUGIN_RESERVED_PREFIX"
  | "PLUGIN_ENTRY_INVALID_PATH"
  | "PLUGIN_ENTRY_MISSING"
  | "PLUGIN_DECLARATIONS_MISSING"
  | "PLUGIN_DECLARATIONS_OUTSIDE"
  | "PLUGIN_NOT_FOUND"
  | "PLUGIN_AUDIT_BLOCKED"
  | "PLUGIN_NOT_APPROVED"
  | "PLUGIN_APPROVAL_STALE"
  | "PLUGIN_CHANGED_DURING_APPROVAL"
  | "PLUGIN_APPROVALS_UNREADABLE"
  | "PLUGIN_APPROVALS_CORRUPT"
  | "PLUGIN_APPROVALS_TOO_LARGE"
  | "PLUGIN_NOT_ENABLED"
  | "PLUGIN_CONFIG_INVALID"
  | "PLUGIN_REGISTRATION_INVALID"
  | "PLUGIN_LOAD_FAILED"
  | "PLUGIN_UNDECLARED_MODULE"
  | "PLUGIN_UNDECLARED_FUNCTION"
  | "PLUGIN_MODULE_CONFLICT"
  | "PLUGIN_DISPOSE_FAILED";

export class PluginError extends McpvmError<PluginErrorCode> {}

/** The command a user runs to (re-)approve a plugin; quoted in several messages so it is spelled once. */
export function approveCommand(name: string): string {
  return `mcpvm plugin approve ${name}`;
}
