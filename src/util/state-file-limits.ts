/**
 * The most mcpvm reads of each state and config file. Each is far above what mcpvm ever writes
 * there, and low enough that a file grown by accident (a tool's output appended, a copy gone wrong,
 * 90 MB of toolsets that took 31 s to list) is refused at once, before it is read, instead of being
 * parsed and validated for half a minute by every command.
 */
const KB = 1024;
const MB = 1024 * KB;

export const STATE_FILE_LIMITS = {
  /** config.json: written by hand and by mcpvm; a large one holds some hundred servers in a few hundred KB. */
  config: 4 * MB,
  /** approved-mcp.json: per server, what was approved (command, arguments, env names, digests). */
  mcpApprovals: 8 * MB,
  /** mcp-pins.json: every approved server's tool definitions; the largest servers pin a few hundred KB each. */
  pins: 32 * MB,
  /** toolsets.json: lists of tool names. */
  toolsets: 4 * MB,
  /** approved-plugins.json: one record per plugin. */
  pluginApprovals: 4 * MB,
  /** gateway-clients.json, oauth-tokens.json, server-status.json, profile-state.json: a few lines per entry. */
  small: 1 * MB,
  /** exec-digests.json: one digest per executable file mcpvm hashed. */
  executableDigests: 4 * MB,
  /** plugin-scans.json: the findings of every scanned plugin source file (a plugin's node_modules is capped at 32 MB). */
  pluginScans: 32 * MB,
  /** The gateway token, its session key and the audit log's head record: one line each. */
  secretLine: 64 * KB,
  /** The REPL history: at most 2,000 lines before it is compacted to 1,000 (a pasted /run script is one line, and can be long). */
  history: 32 * MB,
  /** A saved conversation: tool results are capped at 16,000 characters each. */
  conversation: 64 * MB,
} as const;

/** 94371840 -> "90.0MB", 4194304 -> "4MB": sizes in the units the CLI's flags use (1024s). */
export function describeSize(bytes: number): string {
  for (const [unit, size] of [["GB", 1024 * MB], ["MB", MB], ["KB", KB]] as const) {
    if (bytes >= size) return bytes % size === 0 ? `${bytes / size}${unit}` : `${(bytes / size).toFixed(1)}${unit}`;
  }
  return `${bytes} bytes`;
}
