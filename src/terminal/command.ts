import type { McpvmHost } from "../host/index.js";
import type { LogLevelName } from "../logging/logger.js";
import type { EngineChoice } from "../sandbox/types.js";
import type { ExitCodeValue } from "./exit-codes.js";
import type { CliIo, Colours } from "./io.js";

/**
 * What a command gets. The same command code serves `mcpvm <command>` and the REPL's slash
 * commands (`/mcp list` is `mcpvm mcp list`), so output and behaviour cannot drift apart.
 */
export interface CommandContext {
  readonly io: CliIo;
  readonly colours: Colours;
  /** Opened lazily: `mcpvm --help` never reads config. The REPL passes its long-lived host. */
  host(): Promise<McpvmHost>;
  /** True when a person can answer prompts (stdin and stderr are TTYs, no --yes). */
  readonly interactive: boolean;
  /** --yes: unattended, every confirmation answered yes. */
  readonly assumeYes: boolean;
  readonly json: boolean;
  /** Where the person is: the command line (the default) or the REPL, whose hints name slash commands. */
  readonly face?: "cli" | "repl";
  /** The global --log-level and --engine, for commands that manage their own host (serve). */
  readonly logLevel?: LogLevelName;
  readonly engine?: EngineChoice;
  /**
   * Aborted when the person presses Ctrl-C in the REPL while this command runs as a slash command.
   * On the command line Ctrl-C ends the process instead (the signal guard), so it is unset there.
   */
  readonly signal?: AbortSignal;
}

export interface Command {
  readonly name: string;
  /** One line for `mcpvm --help` and `/help`. */
  readonly summary: string;
  /** Full usage text for `mcpvm <name> --help`. */
  readonly usage: string;
  /** Subcommand names (for REPL tab completion). */
  readonly subcommands?: readonly string[];
  /** Usage of the subcommand named in `args` (`mcpvm mcp add --help`), when it has its own. */
  helpFor?(args: readonly string[]): string | undefined;
  run(args: readonly string[], context: CommandContext): Promise<ExitCodeValue>;
}

/** `--log-level debug` or `trace`: the person asked to see everything, confirmation blocks included. */
export function isVerbose(context: CommandContext): boolean {
  return context.logLevel === "debug" || context.logLevel === "trace";
}

/** The width of the person's terminal on stderr, when stderr is one. */
export function stderrColumns(context: CommandContext): number | undefined {
  const columns = (context.io.stderr as { columns?: unknown }).columns;
  return typeof columns === "number" && columns > 0 ? columns : undefined;
}
