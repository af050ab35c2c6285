/**
 * Every command's one-line summary, apart from its code: `mcpvm --help` lists them and the command
 * table names them without loading any command module (each loads only when it runs).
 */
export const COMMAND_SUMMARIES = {
  run: "Run a guest script (file or stdin) against the enabled plugins and MCP servers",
  mcp: "Manage MCP servers: list, info, types, approve, revoke, enable, disable, add, call, login, logout, remove, import",
  plugin: "List, audit, approve, enable and disable plugins",
  serve: "Run the MCP gateway (stdio, or streamable HTTP with --http): code mode and toolsets over every server",
  gateway: "Manage the HTTP gateway's named client tokens (create, list, revoke) and check its identity provider",
  toolset: "Manage toolsets (named lists of MCP tools the gateway exposes directly)",
  ui: "Open the local web dashboard (servers, approvals, toolsets, activity, run)",
  profile: "List, show and apply profiles (limits, plugins, MCP servers)",
  audit: "Show and verify the hash-chained audit log (approvals, confirmations, flow decisions)",
  doctor: "Check config, state files, servers (commands, variables, approval) and the engine; --connect tests each server",
  demo: "The 60-second tour: guest code calling real MCP servers from npm (no keys needed)",
  completion: "Print a shell completion script (bash, zsh, fish)",
  repl: "The interactive agent (what `mcpvm` with no command starts)",
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
