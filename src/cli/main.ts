import { readFileSync } from "node:fs";
import type { AuditFace } from "../audit-log/index.js";
import { join } from "node:path";
import type { McpvmHost } from "../host/index.js";
import { createLogger, LOG_LEVELS, type LogLevelName } from "../logging/logger.js";
import { Redactor } from "../logging/redact.js";
import { ENGINE_CHOICES, isEngineChoice, type EngineChoice } from "../sandbox/types.js";
import type { CreatedEngine } from "../sandbox/select.js";
import { resolveConfigPaths } from "../config/paths.js";
import { packageRoot } from "../util/package-root.js";
import { didYouMeanFlag, GLOBAL_FLAGS, UsageError } from "../terminal/args.js";
import { didYouMean } from "../util/suggest.js";
import { guardFirstLine, isTerminal, JSON_RPC_ON_STDIN_MESSAGE, NOT_A_TERMINAL_MESSAGE } from "./stdin-guard.js";
import type { CommandContext } from "../terminal/command.js";
import { COMMAND_ENTRIES, type CommandEntry } from "./commands/index.js";
import { reportError } from "../terminal/report-error.js";
import { ExitCode, type ExitCodeValue } from "../terminal/exit-codes.js";
import { colours, processIo, stdinIsProcessTerminal, writeLine, type CliIo } from "../terminal/io.js";
import { ask } from "../terminal/prompt.js";
import { traceStartup } from "../util/startup-trace.js";
import { outliveClosedPipe } from "./closed-pipe.js";
import { guardSignals } from "./signal-guard.js";

const GLOBAL_USAGE = (commands: readonly CommandEntry[]) => `mcpvm — run JavaScript in a sandbox where every MCP server is a typed module.

Usage: mcpvm [global options] <command> [args]
       mcpvm                      start the interactive agent

Commands:
${commands.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join("\n")}

Global options:
  --json                 machine-readable output
  --yes, -y              answer yes to confirmations (unattended use)
  --engine <kind>        auto | quickjs | quickjs-inline | hyperlight (default: config, else auto)
  --log-level <level>    ${LOG_LEVELS.join(" | ")} (logs go to stderr; at debug and trace also to a file in the config home)
  --help, -h             this text, or \`mcpvm <command> --help\`
  --version, -v          the version (also \`mcpvm version\`; with --json: {"version": …})

Config home: ~/.mcpvm (set MCPVM_HOME to move it). Docs: docs/USAGE.md, docs/MCP.md.`;

// The launcher (bin/mcpvm.js) watches for a command that never settles.
export { watchUnsettledExit } from "./unsettled-exit.js";

export const REPL_JSON_MESSAGE =
  "mcpvm: --json is for one command's output, and the interactive agent (`mcpvm` with no command, `mcpvm repl`) has no JSON mode. Drop --json to chat, or give the command whose output you want as JSON (`mcpvm run --json script.js`, `mcpvm mcp list --json`).";

interface GlobalFlags {
  json: boolean;
  yes: boolean;
  help: boolean;
  version: boolean;
  engine: EngineChoice | undefined;
  logLevel: LogLevelName | undefined;
}

/** Global flags may come before the command; everything from the command on belongs to it. */
function splitGlobalFlags(argv: readonly string[]): { flags: GlobalFlags; rest: string[] } {
  const flags: GlobalFlags = { json: false, yes: false, help: false, version: false, engine: undefined, logLevel: undefined };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === "--json") flags.json = true;
    else if (arg === "--yes" || arg === "-y") flags.yes = true;
    else if (arg === "--help" || arg === "-h") flags.help = true;
    else if (arg === "--version" || arg === "-V") flags.version = true;
    // `-v` and `version` mean --version only in the command's place, so no command's own -v is taken.
    else if ((arg === "-v" || arg === "version") && rest.length === 0) flags.version = true;
    else if (arg === "--engine" || arg.startsWith("--engine=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (!isEngineChoice(value)) throw new UsageError("USAGE", `--engine takes ${ENGINE_CHOICES.join(", ")} (got ${value ?? "nothing"}).`);
      flags.engine = value;
    } else if (arg === "--log-level" || arg.startsWith("--log-level=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (!(LOG_LEVELS as readonly string[]).includes(value ?? "")) throw new UsageError("USAGE", `--log-level takes ${LOG_LEVELS.join(", ")} (got ${value ?? "nothing"}).`);
      flags.logLevel = value as LogLevelName;
    } else rest.push(arg);
  }
  return { flags, rest };
}

export function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;
}

export interface RunCliOptions {
  /**
   * runCli is the whole process (bin/mcpvm.js): it may apply process-wide settings that suit its
   * command, such as `mcpvm run`'s one-run tuning (src/cli/one-run-process.ts). Off by default, for
   * runCli inside a longer-lived process (tests).
   */
  readonly wholeProcess?: boolean;
}

/** The CLI entry: parses once, opens the host lazily, dispatches, maps every failure to an exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo(), options: RunCliOptions = {}): Promise<ExitCodeValue> {
  traceStartup("runCli");
  if (options.wholeProcess === true) {
    outliveClosedPipe(io.stdout);
    outliveClosedPipe(io.stderr);
    // Ctrl-C, SIGTERM or SIGHUP that the command does not answer itself ends every server it started too.
    guardSignals(io.stdout, io.stderr);
  }
  // The shell completion scripts' hidden helper: before anything else, so no word is taken as a flag.
  // Imported here, not at the top: every other command would load the completion tables for nothing.
  if (argv[0] === "__complete") return (await import("./completion/complete.js")).runComplete(argv.slice(1), io.env, io.stdout) === 0 ? ExitCode.Ok : ExitCode.Usage;
  const paint = colours(io.stderr, io.env);
  let hostPromise: Promise<McpvmHost> | undefined;
  let startedEngine: Promise<CreatedEngine | undefined> | undefined;
  const commands = COMMAND_ENTRIES;
  let context: CommandContext | undefined;
  try {
    const split = splitGlobalFlags(argv);
    const flags = split.flags;
    // `mcpvm --resume last` is the REPL's own option, given without its (optional) command name.
    const rest = split.rest[0] === "--resume" || split.rest[0]?.startsWith("--resume=") === true ? ["repl", ...split.rest] : split.rest;
    const [name, ...args] = rest;
    const commandName = name ?? "repl";
    if (flags.version) {
      // --json promises output a program can parse: a bare 0.1.0 is not JSON.
      writeLine(io.stdout, flags.json ? JSON.stringify({ version: version() }) : version());
      return ExitCode.Ok;
    }
    // `mcpvm run` starts its engine's worker now, before its command module and the host load, which
    // the main thread does while the worker boots QuickJS on the other core (src/cli/engine-prestart.ts).
    if (commandName === "run" && !flags.help) {
      const early = (await import("./engine-prestart.js")).startRunEngine(resolveConfigPaths(io.env), flags.engine, { wholeProcess: options.wholeProcess === true });
      startedEngine = early.engine;
      await early.starting;
    }
    const atTerminal = stdinIsProcessTerminal(io) && io.stderr.isTTY === true;
    // --yes answers confirmations; it never supplies secrets, so ${input:…} values are still asked on a terminal.
    const interactive = atTerminal && !flags.yes;
    context = {
      io,
      colours: colours(io.stdout, io.env),
      interactive,
      assumeYes: flags.yes,
      json: flags.json,
      ...(flags.logLevel === undefined ? {} : { logLevel: flags.logLevel }),
      ...(flags.engine === undefined ? {} : { engine: flags.engine }),
      host: () => {
        hostPromise ??= (async () => {
          const paths = resolveConfigPaths(io.env);
          // Loaded here, not at the top: `mcpvm --help`, `--version` and completion never open a host.
          const [{ McpvmHost }, { serverRequestsOnTerminal }] = await Promise.all([import("../host/index.js"), import("./commands/server-requests-on-terminal.js")]).catch(async (error: unknown) => {
            await (await startedEngine)?.engine.dispose();
            throw error;
          });
          traceStartup("host modules loaded");
          const redactor = new Redactor();
          const { logger } = createLogger({ level: flags.logLevel ?? "warn", redactor, consoleStream: io.stderr, plain: true, logsDir: flags.logLevel === undefined ? undefined : paths.logsDir });
          const opening = McpvmHost.open({
            env: io.env,
            logger,
            redactor,
            face: faceOf(commandName),
            ...(startedEngine === undefined ? {} : { startedEngine }),
            ...(flags.engine === undefined ? {} : { engine: flags.engine }),
            ...(atTerminal && context !== undefined ? { promptInput: promptInputFor(context) } : {}),
            ...(context === undefined ? {} : { serverRequests: serverRequestsOnTerminal(context, atTerminal) }),
          });
          return opening.catch(async (error: unknown) => {
            await (await startedEngine)?.engine.dispose();
            throw error;
          });
        })();
        return hostPromise;
      },
    };
    if (name !== undefined && name.startsWith("-") && name !== "--") {
      throw new UsageError("USAGE", `mcpvm: unknown option ${name}${didYouMeanFlag(name.split("=")[0] as string, [...GLOBAL_FLAGS, "-v"]) || "."} Run \`mcpvm --help\` for the global options.`);
    }
    const find = (wanted: string) => {
      const found = commands.find((c) => c.name === wanted);
      if (found === undefined) throw new UsageError("USAGE", `unknown command "${wanted}"${didYouMean(wanted, [...commands.map((c) => c.name), "help", "version"]) || "."} Run \`mcpvm --help\` for the list.`);
      return found;
    };
    if (name === "help" || (name === undefined && flags.help)) {
      const target = name === "help" && args[0] !== undefined ? await find(args[0]).load() : undefined;
      writeLine(io.stdout, target === undefined ? GLOBAL_USAGE(commands) : target.helpFor?.(args.slice(1)) ?? target.usage);
      return ExitCode.Ok;
    }
    // --json promises output a program can parse; a chat is a person's conversation, so there is no
    // half-JSON REPL (slash commands in JSON, the chat in text): refused before anything starts.
    if (commandName === "repl" && flags.json && !flags.help) throw new UsageError("USAGE", REPL_JSON_MESSAGE);
    // A bare `mcpvm` with piped stdin is nearly always an MCP client entry that forgot `serve`.
    if (name === undefined && !isTerminal(io.stdin)) throw new UsageError("USAGE", NOT_A_TERMINAL_MESSAGE);
    const command = await find(name ?? "repl").load();
    if (flags.help) {
      writeLine(io.stdout, command.helpFor?.(args) ?? command.usage);
      return ExitCode.Ok;
    }
    if (command.name === "repl" && !isTerminal(io.stdin)) {
      const guard = guardFirstLine(io.stdin);
      const code = await command.run(args, { ...context, io: { ...io, stdin: guard.stdin } });
      if (!guard.tripped()) return code;
      throw new UsageError("USAGE", JSON_RPC_ON_STDIN_MESSAGE);
    }
    traceStartup("command loaded");
    return await command.run(args, context);
  } catch (error) {
    return reportError(
      context ?? { io, colours: paint, interactive: false, assumeYes: false, json: argv.includes("--json"), host: () => Promise.reject(new Error("no host")) },
      error,
    );
  } finally {
    traceStartup("command done");
    if (hostPromise !== undefined) await (await hostPromise.catch(() => undefined))?.close();
    // Started for a run that never opened its host (a usage error, an unreadable script): not leaked.
    else await (await startedEngine)?.engine.dispose();
    traceStartup("host closed");
  }
}

/** The face the audit log records for a command: the REPL and script runs are faces of their own. */
function faceOf(command: string): AuditFace {
  return command === "repl" ? "repl" : command === "run" ? "run" : command === "demo" ? "demo" : command === "ui" ? "ui" : "cli";
}

function promptInputFor(context: CommandContext) {
  return async (input: { id: string; description?: string | undefined; type: string; password?: boolean | undefined }) => {
    const label = input.description ?? input.id;
    return ask(context, `${label}: `, input.type === "promptString" && input.password === true);
  };
}
