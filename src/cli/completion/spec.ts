/**
 * What shell completion knows about mcpvm's command line: commands, subcommands, flags, and what
 * each argument names. Plain data, so `mcpvm __complete` starts without loading the commands
 * themselves (that costs a second; completion must feel instant). tests/cli/completion.test.ts
 * checks this table against the real command table, so a new command, subcommand or documented
 * flag that is missing here fails a test.
 */

/** What a position completes to; `file` and `none` print nothing, so the shell offers file names. */
export type ArgumentKind =
  | "command"
  | "server"
  | "tool"
  | "server-tool"
  | "tool-argument"
  | "catalog"
  | "toolset"
  | "profile"
  | "plugin"
  | "shell"
  | "file"
  | "none";

export interface SubcommandSpec {
  /** One kind per argument; the last one repeats when `repeat` is set. */
  readonly args: readonly ArgumentKind[];
  readonly repeat?: boolean;
  /** Flags of this subcommand; when absent, the command's flags. */
  readonly flags?: readonly string[];
}

export interface CommandSpec {
  readonly flags: readonly string[];
  readonly subcommands?: Readonly<Record<string, SubcommandSpec>>;
  /** Arguments of a command without subcommands. */
  readonly args?: readonly ArgumentKind[];
  readonly repeat?: boolean;
  /** The subcommand when none is typed (`mcpvm mcp` is `mcpvm mcp list`). */
  readonly defaultSubcommand?: string;
}

export const LOG_LEVEL_NAMES: readonly string[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
export const ENGINE_NAMES: readonly string[] = ["auto", "quickjs", "quickjs-inline", "hyperlight"];
export const SHELL_NAMES: readonly string[] = ["bash", "zsh", "fish"];
/** src/agent/profiles/builtin.ts, checked by the test. */
export const BUILTIN_PROFILE_NAMES: readonly string[] = ["default", "strict", "long-running"];

export const GLOBAL_FLAGS: readonly string[] = ["--json", "--yes", "--engine", "--log-level", "--help", "--version"];

/** Flags that take a value, and what the value is (`undefined`: anything, nothing to offer). */
export const VALUE_FLAGS: Readonly<Record<string, ArgumentKind | readonly string[] | undefined>> = {
  "--engine": ENGINE_NAMES,
  "--log-level": LOG_LEVEL_NAMES,
  "--transport": ["stdio", "http", "sse"],
  "-t": ["stdio", "http", "sse"],
  "--toolset": "toolset",
  "--since": undefined,
  "--event": undefined,
  "--limit": undefined,
  "--before": undefined,
  "--expose": "server",
  "--resource": undefined,
  "--http": undefined,
  "--sse": undefined,
  "--token": undefined,
  "--token-file": "file",
  "--header": undefined,
  "-H": undefined,
  "--env": undefined,
  "-e": undefined,
  "--dir": "file",
  "--cwd": "file",
  "--as": undefined,
  "--description": undefined,
  "--connect-timeout": undefined,
  "--client-id": undefined,
  "--callback-port": undefined,
  "--timeout": undefined,
  "--cpu": undefined,
  "--memory": undefined,
  "--output": undefined,
  "--tool-calls": undefined,
  "--eval": undefined,
  "--home": "file",
  "--script": "file",
  "--unset": undefined,
  "--accept-blocked": undefined,
  "--only": undefined,
  "--servers": undefined,
  "--rate": undefined,
};

const SERVER = { args: ["server"] } as const;
const MCP_FLAGS = ["--check", "--overwrite", "--tools", "--accept-blocked", "--accept-launch-env", "--only", "--dry-run"];
const ADD_FLAGS = [
  "--transport",
  "--stdio",
  "--http",
  "--sse",
  "--env",
  "--header",
  "--cwd",
  "--dir",
  "--as",
  "--description",
  "--connect-timeout",
  "--client-id",
  "--callback-port",
  "--overwrite",
];
const PLUGIN = { args: ["plugin"] } as const;

export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  run: { flags: ["--eval", "--timeout", "--cpu", "--memory", "--output", "--tool-calls", "--stats", "--login"], args: ["file"] },
  mcp: {
    flags: MCP_FLAGS,
    defaultSubcommand: "list",
    subcommands: {
      list: { args: [] },
      info: SERVER,
      types: SERVER,
      approve: SERVER,
      revoke: SERVER,
      enable: SERVER,
      disable: SERVER,
      remove: SERVER,
      add: { args: ["catalog"], flags: ADD_FLAGS },
      call: { args: ["server", "tool", "tool-argument"], repeat: true, flags: ["--timeout", "--login"] },
      login: { args: ["server"], flags: ["--no-browser"] },
      logout: SERVER,
      import: { args: ["file"] },
    },
  },
  plugin: {
    flags: ["--unset"],
    defaultSubcommand: "list",
    subcommands: { list: { args: [] }, info: PLUGIN, audit: PLUGIN, approve: PLUGIN, revoke: PLUGIN, enable: PLUGIN, disable: PLUGIN, config: PLUGIN },
  },
  serve: { flags: ["--http", "--token-file", "--token", "--no-auth", "--toolset", "--expose", "--log-level", "--engine"], args: [] },
  gateway: {
    flags: ["--toolset", "--servers", "--rate"],
    subcommands: { token: { args: ["none", "none"] }, oauth: { args: ["none", "none"], flags: ["--resource"] } },
  },
  toolset: {
    flags: ["--check", "--description"],
    subcommands: {
      list: { args: [] },
      show: { args: ["toolset"] },
      build: { args: ["toolset", "server-tool"], repeat: true },
      delete: { args: ["toolset"] },
    },
  },
  ui: { flags: ["--port", "--no-open"], args: [] },
  profile: {
    flags: [],
    defaultSubcommand: "list",
    subcommands: { list: { args: [] }, show: { args: ["profile"] }, apply: { args: ["profile"], repeat: true } },
  },
  audit: {
    flags: ["--since", "--event", "--limit", "--before"],
    defaultSubcommand: "log",
    subcommands: { log: { args: [] }, verify: { args: [], flags: [] } },
  },
  doctor: { flags: ["--connect"], args: [] },
  demo: { flags: ["--home", "--keep", "--script"], args: [] },
  completion: { flags: [], args: ["shell"] },
  help: { flags: [], args: ["command"] },
};

/** The commands a person types (the hidden `__complete` and the default `repl` are not offered). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);
