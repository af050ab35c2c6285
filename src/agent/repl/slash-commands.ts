import { formatDuration, parseDuration, UsageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { formatTable, writeLine } from "../../terminal/io.js";
import type { McpvmHost } from "../../host/index.js";
import { RunLimitsSchema } from "../../sandbox/limits.js";
import { isMcpvmError } from "../../util/errors.js";
import { counted } from "../../util/counted.js";
import { didYouMean } from "../../util/suggest.js";
import { HOW_TO_CONFIGURE } from "../llm/model-config.js";
import { saveConversation } from "./saved-conversations.js";
import type { ChatSession } from "./session.js";

/** What a slash command may use of the running REPL. */
export interface ReplControls {
  readonly context: CommandContext;
  readonly host: McpvmHost;
  readonly chat: ChatSession;
  /** The wall budget set by /timeout, or undefined for the configured one. */
  wallMs: number | undefined;
  runGuest(code: string): Promise<void>;
  /** Runs work as the REPL's current step: Ctrl-C aborts its signal instead of being ignored. */
  asStep(work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  /** Reads a multi-line JS block (ends with /end); undefined when abandoned. */
  readBlock(): Promise<string | undefined>;
  leave(): void;
}

export interface SlashCommand {
  readonly name: string;
  readonly summary: string;
  readonly subcommands?: readonly string[];
  /** The command takes nothing after its name: extra words are refused, not silently ignored. */
  readonly noArguments?: true;
  /** `rest` is the text after the command name, untouched (for /run's code). */
  run(controls: ReplControls, args: readonly string[], rest: string): Promise<void>;
}

/** /mcp exists only behind the gate; without it, say how to open it instead of failing obscurely. */
async function mcpGate(controls: ReplControls): Promise<boolean> {
  try {
    await controls.host.requireMcp();
    return true;
  } catch (error) {
    if (!isMcpvmError(error) || error.code !== "MCP_PLUGIN_NOT_ENABLED") throw error;
    writeLine(
      controls.context.io.stderr,
      `MCP is off: the mcp plugin is not enabled, so /mcp is not available yet.\nReview and enable it with ${controls.context.colours.bold("/plugin approve mcp")} then ${controls.context.colours.bold("/plugin enable mcp")}.`,
    );
    return false;
  }
}

/**
 * A shared command's usage errors are written for the command line (`mcpvm plugin: unknown command
 * "frob". See \`mcpvm plugin --help\`.`); in the REPL the same command is typed as `/plugin`, so
 * every shared command they name is named as its slash command. Only usage errors: other messages
 * may mean the command line (`run \`mcpvm mcp approve x\` in a terminal`).
 */
function asSlashUsage(error: unknown, names: readonly string[]): unknown {
  if (!(error instanceof UsageError)) return error;
  const named = new RegExp(`\\bmcpvm (${names.join("|")})(?![\\w-])`, "g");
  return new UsageError(error.code, error.message.replace(named, "/$1"), { ...(error.data === undefined ? {} : { data: { ...error.data } }), cause: error });
}

function shared(command: Command, names: readonly string[]): SlashCommand {
  return {
    name: command.name,
    summary: command.summary,
    ...(command.subcommands === undefined ? {} : { subcommands: command.subcommands }),
    run: async (controls, args) => {
      if (args.includes("--help") || args.includes("-h")) {
        writeLine(controls.context.io.stdout, command.usage.replace(/mcpvm /g, "/"));
        return;
      }
      if (command.name === "mcp" && !(await mcpGate(controls))) return;
      // A slash command can wait on a server (a handshake, a slow call): Ctrl-C must reach it.
      await controls.asStep(async (signal) => {
        await command.run(args, { ...controls.context, signal }).catch((error: unknown) => {
          throw asSlashUsage(error, names);
        });
      });
    },
  };
}

/** A /timeout value, checked against the sandbox's bounds before the session takes it. */
function sessionTimeout(text: string): number {
  const ms = parseDuration("timeout", "/timeout", text);
  const schema = RunLimitsSchema.shape.wallMs;
  const min = schema.minValue ?? 1;
  const max = schema.maxValue ?? Number.MAX_SAFE_INTEGER;
  if (ms < min || ms > max) throw new UsageError("USAGE", `/timeout must be between ${formatDuration(min)} and ${formatDuration(max)} (got ${text}).`);
  return ms;
}

/** What the session talks to after a refused /model. */
function keptModel(controls: ReplControls): string {
  try {
    const m = controls.chat.model();
    return `Unchanged: the session keeps ${m.provider}:${m.model}.`;
  } catch {
    return "Unchanged: the session still has no model.";
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/**
 * The REPL's slash commands. `sharedCommands` are the CLI's own commands (mcp, plugin, profile),
 * handed down by the cli so that `/mcp list` is `mcpvm mcp list` without the agent importing the cli.
 */
export function slashCommands(sharedCommands: readonly Command[]): readonly SlashCommand[] {
  const commands: SlashCommand[] = [
  {
    name: "help",
    summary: "This list; /help <command> for one command's usage",
    run: async (controls, args) => {
      const out = controls.context.io.stdout;
      const wanted = args[0]?.replace(/^\//, "");
      const target = wanted === undefined ? undefined : findSlashCommand(commands, wanted);
      if (wanted !== undefined && target === undefined) throw unknownSlashCommand(wanted, commands);
      if (target !== undefined && (target.name === "mcp" || target.name === "plugin" || target.name === "profile")) {
        await target.run(controls, ["--help"], "");
        return;
      }
      const shown = target === undefined ? commands : [target];
      writeLine(out, formatTable(shown.map((c) => [`/${c.name}${c.subcommands === undefined ? "" : " …"}`, c.summary])));
      if (target !== undefined) return;
      writeLine(out, "\nAnything else is a message to the model. Ctrl-C cancels the running step; Ctrl-D or /exit leaves.");
    },
  },
  ...sharedCommands.map((command) => shared(command, sharedCommands.map((c) => c.name))),
  {
    name: "run",
    summary: "Run JavaScript in the sandbox without the model: /run <code>, or /run alone for a multi-line block ended by /end",
    run: async (controls, _args, rest) => {
      const code = rest.trim() === "" ? await controls.readBlock() : rest;
      if (code !== undefined && code.trim() !== "") await controls.runGuest(code);
    },
  },
  {
    name: "timeout",
    summary: "Show or set the wall-clock budget of each run (/timeout 60s, /timeout default)",
    run: async (controls, args) => {
      const out = controls.context.io.stdout;
      if (args[0] === "default") controls.wallMs = undefined;
      else if (args[0] !== undefined) controls.wallMs = sessionTimeout(args[0]);
      const effective = controls.host.limits(controls.wallMs === undefined ? {} : { wallMs: controls.wallMs }).wallMs;
      writeLine(out, `wall budget per run: ${formatMs(effective)}${controls.wallMs === undefined ? " (from config / profile)" : " (set with /timeout for this session)"}`);
    },
  },
  {
    name: "model",
    summary: "Show the model, or use another for this session (/model provider:model, /model default)",
    run: async (controls, args) => {
      const out = controls.context.io.stdout;
      const before = controls.chat.modelSpec;
      if (args[0] === "default") controls.chat.modelSpec = undefined;
      else if (args[0] !== undefined) controls.chat.modelSpec = args[0];
      if (args[0] !== undefined && args[0] !== "default") {
        // A spec that does not resolve would turn chat off for the session: keep the model it had.
        try {
          controls.chat.model();
        } catch (error) {
          controls.chat.modelSpec = before;
          if (!isMcpvmError(error) || !error.code.startsWith("LLM_")) throw error;
          throw new UsageError("USAGE", `${error.message.replace(/^MCPVM_MODEL=/, "/model ")}\n${keptModel(controls)}`);
        }
      }
      try {
        const m = controls.chat.model();
        writeLine(out, `model: ${m.provider}:${m.model}${m.baseUrl === undefined ? "" : ` at ${m.baseUrl}`}; key: ${m.apiKeySource ?? "none"}; up to ${m.maxSteps} steps per message`);
      } catch (error) {
        if (!isMcpvmError(error) || !error.code.startsWith("LLM_")) throw error;
        writeLine(out, `${error.message}${error.code === "LLM_NOT_CONFIGURED" ? "" : `\n${HOW_TO_CONFIGURE}`}`);
      }
    },
  },
  {
    name: "new",
    noArguments: true,
    summary: "Start a new conversation (the model forgets this one)",
    run: async (controls) => {
      controls.chat.reset();
      writeLine(controls.context.io.stdout, "New conversation.");
    },
  },
  {
    name: "save",
    noArguments: true,
    summary: "Save this conversation to resume later (mcpvm --resume <id> or last)",
    run: async (controls) => {
      const { stdout } = controls.context.io;
      if (controls.chat.turns === 0) {
        writeLine(stdout, "Nothing to save yet: the conversation is empty.");
        return;
      }
      const model = (() => {
        try {
          const m = controls.chat.model();
          // The model's own key is a secret too: masked wherever the person pasted it.
          if (m.apiKey !== undefined) controls.host.redactor.add([m.apiKey]);
          return `${m.provider}:${m.model}`;
        } catch {
          return undefined;
        }
      })();
      const id = await saveConversation(controls.host.paths.home, controls.chat.history, model, (text) => controls.host.redactor.redact(text));
      writeLine(stdout, `Saved as ${id} (known secrets masked). Resume it with: mcpvm --resume ${id}   (or --resume last)`);
    },
  },
  {
    name: "tokens",
    noArguments: true,
    summary: "Token usage: last message, this session, and what the model gets each step",
    run: async (controls) => {
      const { chat } = controls;
      const out = controls.context.io.stdout;
      const last = chat.last;
      writeLine(out, `last message: ${last === undefined ? "-" : `${last.inputTokens} in, ${last.outputTokens} out`} (as the provider reported them)`);
      writeLine(out, `session:      ${chat.totals.inputTokens} in, ${chat.totals.outputTokens} out, ${chat.totals.totalTokens} total over ${counted(chat.totals.turns, "message")}`);
      const cost = await chat.stepCost();
      writeLine(
        out,
        `each step:    system message ${cost.systemTokens} tokens + ${cost.toolCount} tool definitions ${cost.toolTokens} tokens = ${cost.systemTokens + cost.toolTokens} tokens before the conversation`,
      );
      writeLine(out, controls.context.colours.dim(`              counted with ${cost.encoding} (OpenAI's tokenizer; other models split text differently)`));
    },
  },
  {
    name: "exit",
    noArguments: true,
    summary: "Leave (closes every MCP connection); Ctrl-D does the same",
    run: async (controls) => controls.leave(),
  },
  ];
  return commands;
}

export function findSlashCommand(commands: readonly SlashCommand[], name: string): SlashCommand | undefined {
  return commands.find((c) => c.name === name || (name === "quit" && c.name === "exit"));
}

/** /exit now, /new chat: words after a command that takes none (the person may have meant something else). */
export function unexpectedSlashArguments(name: string, rest: string): UsageError {
  return new UsageError("USAGE", `/${name} takes no arguments (got "${rest.trim().slice(0, 60)}"); type /${name} alone.`);
}

/** An unknown /name, with the closest command when one is close (as the CLI does for `mcpvm rn`). */
export function unknownSlashCommand(name: string, commands: readonly SlashCommand[]): UsageError {
  const suggestion = name === "" ? "" : didYouMean(`/${name}`, [...commands.map((c) => `/${c.name}`), "/quit"]);
  return new UsageError("USAGE", `unknown command /${name}${suggestion === "" ? "." : suggestion} /help lists the commands.`);
}
