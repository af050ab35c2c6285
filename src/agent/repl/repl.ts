import { replLoginInteraction } from "./login.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { displayBlock, displayInline } from "../../terminal/display.js";
import { RedactingStream } from "../../logging/redact.js";
import { reportError } from "../../terminal/report-error.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { writeLine } from "../../terminal/io.js";
import { formatLogs, formatResultNotes, formatRunError, formatStats, formatValue } from "../../terminal/render/run-result.js";
import { Spinner } from "../../terminal/spinner.js";
import type { McpvmHost } from "../../host/index.js";
import { mcpBanner } from "../../host/diagnose/index.js";
import { KNOWN_SERVERS } from "../../mcp/known-servers.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { counted } from "../../util/counted.js";
import { HOW_TO_CONFIGURE } from "../llm/model-config.js";
import { describeToolError } from "../llm/tool-error.js";
import { availableProfiles } from "../profiles/index.js";
import { completeLine, type NameKind } from "./completer.js";
import { ConfigFreshness } from "./config-freshness.js";
import { historyWarner, loadHistory } from "./history.js";
import { processInterrupts, type InterruptSource } from "./interrupts.js";
import { LineReader } from "./line-reader.js";
import { ReplPerson } from "./person.js";
import { replServerRequests } from "./server-requests.js";
import { renderToolCall, renderToolError, renderToolResult, splitArgs, type CallMark } from "./render.js";
import { loadConversation, type SavedConversation } from "./saved-conversations.js";
import { ChatSession } from "./session.js";
import { turnEndNote } from "./turn-end.js";
import { findSlashCommand, slashCommands, unexpectedSlashArguments, unknownSlashCommand, type ReplControls, type SlashCommand } from "./slash-commands.js";

export interface ReplOptions {
  /** The same context `mcpvm mcp …` gets, so /mcp and /plugin behave and print exactly alike. */
  readonly context: CommandContext;
  /** The cli's commands that also run as slash commands (/mcp, /plugin, /profile); given by the cli, which the agent never imports. */
  readonly sharedCommands?: readonly Command[];
  /** Ctrl-C while a step runs; defaults to the process's SIGINT. */
  readonly interrupts?: InterruptSource;
  /** `--resume <id|last>`: the saved conversation to carry on (saved-conversations.ts). */
  readonly resume?: string;
}

/** `mcpvm` with no command: the interactive agent. Returns when the person leaves; the host is closed then. */
export async function runRepl(options: ReplOptions): Promise<ExitCodeValue> {
  const host = await options.context.host();
  // Read before the REPL starts: an unknown id or a damaged file ends here, with its exit code.
  const resumed = options.resume === undefined ? undefined : await loadConversation(host.paths.home, options.resume);
  const sayOnce = historyWarner((message) => writeLine(options.context.io.stderr, options.context.colours.yellow(`warning: ${message}`)));
  const history = await loadHistory(host.paths.historyFile).catch((error: unknown) => {
    sayOnce(error);
    return [];
  });
  const repl = new Repl(options, host, history, sayOnce);
  if (resumed !== undefined) repl.chat.restore(resumed.messages);
  return repl.run(resumed);
}

class Repl implements ReplControls {
  wallMs: number | undefined;
  readonly context: CommandContext;
  readonly chat: ChatSession;
  private readonly commands: readonly SlashCommand[];
  private readonly reader: LineReader;
  private readonly spinner: Spinner;
  private readonly person: ReplPerson;
  private step: AbortController | undefined;
  private leaving = false;
  private readonly freshness: ConfigFreshness;

  constructor(
    private readonly options: ReplOptions,
    readonly host: McpvmHost,
    history: readonly string[],
    onHistoryError: (error: unknown) => void,
  ) {
    // Hints the shared commands print name slash commands here, not a command line to rerun.
    this.context = { ...options.context, face: "repl" };
    this.commands = slashCommands(options.sharedCommands ?? []);
    const io = this.context.io;
    this.spinner = new Spinner(io.stderr);
    this.reader = new LineReader({
      input: io.stdin,
      output: io.stdout,
      history,
      historyFile: host.paths.historyFile,
      completer: (line) => completeLine(line, { commands: this.commands, names: (kind) => this.names(kind) }),
      onHistoryError,
    });
    this.freshness = new ConfigFreshness(host);
    this.person = new ReplPerson(this.context, this.reader, this.spinner, () => this.step?.abort(), () => this.step?.signal);
    this.chat = new ChatSession(host, io.env, { host, person: this.person, runLimits: () => (this.wallMs === undefined ? {} : { wallMs: this.wallMs }) });
  }

  async run(resumed?: SavedConversation): Promise<ExitCodeValue> {
    const { stdout, stderr } = this.context.io;
    this.host.setConfirmCall((request) => this.person.confirmCall(request));
    this.host.setLoginInteraction(replLoginInteraction(this.context, this.person));
    // Flows are asked about only where a person can answer: --yes never allows one.
    this.host.setAskFlow(this.person.canAsk ? (request) => this.person.confirmFlow(request) : undefined);
    // Forms and sampling from MCP servers are asked on this REPL's line reader, answered by its model.
    this.host.setServerRequests(replServerRequests(this.host, this.context, this.person, () => this.chat.model(), () => this.step?.signal));
    const unsubscribe = (this.options.interrupts ?? processInterrupts()).subscribe(() => this.onInterrupt());
    try {
      await this.banner();
      if (resumed !== undefined) writeLine(stderr, this.context.colours.dim(`Resumed conversation ${resumed.id} (${counted(this.chat.turns, "message")} from you, saved ${resumed.savedAt}).`));
      await this.freshness.check();
      while (!this.leaving) {
        const outcome = await this.reader.read(this.context.colours.bold(this.context.colours.cyan("mcpvm> ")), { history: true });
        // A server asked something while the REPL waited here (a form, a sampling request outside any
        // step): its question took the line reader. The prompt comes back once it is answered; read
        // again at once and the two would take the reader from each other until neither reads.
        if (outcome.kind === "withdrawn") {
          await this.person.idle();
          continue;
        }
        if (outcome.kind === "eof") break;
        this.reader.suspend();
        if (outcome.kind === "interrupt") writeLine(stderr, this.context.colours.dim("(Ctrl-D or /exit leaves)"));
        else if (outcome.kind === "line") await this.handle(outcome.text);
      }
    } finally {
      unsubscribe();
      this.reader.suspend();
      this.spinner.stop();
      this.host.setConfirmCall(undefined);
      this.host.setLoginInteraction(undefined);
      this.host.setAskFlow(undefined);
      this.host.setServerRequests(undefined);
      await this.host.close();
      await this.reader.historySaved();
    }
    writeLine(stdout, "bye");
    return ExitCode.Ok;
  }

  leave(): void {
    this.leaving = true;
  }

  async runGuest(code: string): Promise<void> {
    const { stdout, stderr } = this.context.io;
    const colours = this.context.colours;
    await this.asStep(async (signal) => {
      this.spinner.start("running…");
      const result = await this.host.run(code, { limits: this.wallMs === undefined ? {} : { wallMs: this.wallMs }, signal, filename: "repl.js" }).finally(() => this.spinner.stop());
      for (const line of formatLogs(result, colours)) writeLine(stdout, line);
      if (result.ok) {
        const text = formatValue(result.value);
        if (text !== "") writeLine(stdout, text);
        for (const line of formatResultNotes(result, colours)) writeLine(stderr, line);
      } else writeLine(stderr, formatRunError(result, colours));
      writeLine(stderr, colours.dim(formatStats(result)));
    });
  }

  async readBlock(): Promise<string | undefined> {
    writeLine(this.context.io.stderr, this.context.colours.dim("JavaScript block: end it with /end on its own line; Ctrl-C discards it."));
    const lines: string[] = [];
    for (;;) {
      const outcome = await this.reader.read(this.context.colours.dim("... "));
      if (outcome.kind === "interrupt" || outcome.kind === "withdrawn") {
        this.reader.suspend();
        return undefined;
      }
      if (outcome.kind === "eof" || outcome.text.trim() === "/end") {
        this.reader.suspend();
        return lines.join("\n");
      }
      lines.push(outcome.text);
    }
  }

  private async handle(line: string): Promise<void> {
    const text = line.trim();
    if (text === "") return;
    try {
      await this.freshness.check();
      // A lone "/" (or "/ x") is a command gone wrong, not a message worth the model's tokens.
      const slash = /^\/(\S*)\s*([\s\S]*)$/.exec(text);
      if (slash === null) {
        await this.chatTurn(text);
        return;
      }
      const [, name = "", rest = ""] = slash;
      const command = findSlashCommand(this.commands, name);
      if (command === undefined) throw unknownSlashCommand(name, this.commands);
      if (command.noArguments === true && rest.trim() !== "") throw unexpectedSlashArguments(name, rest);
      await command.run(this, splitArgs(rest), rest);
    } catch (error) {
      this.report(error);
    }
  }

  private async chatTurn(text: string): Promise<void> {
    const { stdout, stderr } = this.context.io;
    const colours = this.context.colours;
    let maxSteps: number;
    try {
      maxSteps = this.chat.model().maxSteps;
    } catch (error) {
      if (!isMcpvmError(error) || !error.code.startsWith("LLM_")) throw error;
      writeLine(stderr, `${colours.yellow("Chat is off")}: ${error.message}${error.code === "LLM_NOT_CONFIGURED" ? "" : `\n${HOW_TO_CONFIGURE}`}\nEverything else works: /help lists the commands, /run runs JavaScript directly.`);
      return;
    }
    let atLineStart = true;
    const write = (chunk: string) => {
      stdout.write(chunk);
      atLineStart = chunk.endsWith("\n");
    };
    const endLine = () => {
      if (!atLineStart) write("\n");
    };
    // The model's text arrives in pieces: a secret split between two is masked only by a stream that holds its tail back.
    const shown = new RedactingStream(this.host.redactor);
    const flushText = () => {
      const rest = shown.end();
      if (rest !== "") write(displayBlock(rest));
    };
    await this.asStep(async (signal) => {
      try {
        // Calls of the current step by id; their results are marked with the call's position once a step has several.
        const stepCalls = new Map<string, CallMark>();
        const markOf = (callId: string): CallMark | undefined => (stepCalls.size > 1 ? stepCalls.get(callId) : undefined);
        const turn = await this.chat.send(text, signal, {
          onStepStart: () => {
            flushText();
            stepCalls.clear();
            this.spinner.start("thinking…");
          },
          onTextDelta: (delta) => {
            this.spinner.stop();
            write(displayBlock(shown.write(delta)));
          },
          onToolCall: (name, input, callId) => {
            this.spinner.stop();
            flushText();
            endLine();
            const position = stepCalls.size + 1;
            stepCalls.set(callId, { position, name });
            write(`${renderToolCall(name, input, colours, position)}\n`);
            this.spinner.start(`${name}…`);
          },
          onToolResult: (_name, output, callId) => {
            this.spinner.stop();
            write(`${renderToolResult(output, colours, markOf(callId))}\n`);
          },
          onContextTrim: (count, tokens, window) => {
            this.spinner.stop();
            endLine();
            writeLine(stderr, colours.yellow(`note: ${count === 1 ? "an earlier tool result was" : `${count} earlier tool results were`} left out of what the model is sent, to fit its context window (about ${tokens.toLocaleString("en-US")} of ${window.toLocaleString("en-US")} tokens; model.contextWindow in config.json). /new starts a new conversation.`));
            this.spinner.start("thinking…");
          },
          onToolError: (_name, error, callId) => {
            this.spinner.stop();
            write(`${renderToolError(this.host.stripHostPaths(this.host.redactor.redact(describeToolError(error))), colours, markOf(callId))}\n`);
          },
        });
        // A step that ended without text or a call (an empty answer) never stopped the spinner it started.
        this.spinner.stop();
        flushText();
        endLine();
        const note = turnEndNote(turn, maxSteps);
        if (note !== undefined) writeLine(stderr, note.warn ? colours.yellow(note.text) : colours.dim(note.text));
      } catch (error) {
        this.spinner.stop();
        flushText();
        endLine();
        if (!signal.aborted) throw error;
        writeLine(stderr, colours.yellow("cancelled; the conversation is as it was before this message"));
      }
    });
  }

  /** Work Ctrl-C can cancel: the model's turn or a guest run. */
  async asStep(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    this.step = controller;
    try {
      await work(controller.signal);
    } finally {
      this.step = undefined;
      // A question the step left open (a server's form, a sampling request, a confirmation) is moot now.
      this.person.withdrawQuestion("the step it belonged to has ended");
    }
  }

  private onInterrupt(): void {
    if (this.step !== undefined) {
      this.spinner.stop();
      writeLine(this.context.io.stderr, this.context.colours.yellow("^C cancelling…"));
      this.step.abort();
    } else if (!this.reader.terminal) {
      // No terminal (input is piped): SIGINT means "stop", so leave cleanly at the next prompt.
      this.leaving = true;
    }
  }

  private report(error: unknown): void {
    if (isMcpvmError(error)) reportError(this.context, error);
    else writeLine(this.context.io.stderr, `${this.context.colours.red("error")} ${this.host.stripHostPaths(this.host.redactor.redact(errorMessage(error)))}`);
  }

  private async banner(): Promise<void> {
    const { stderr } = this.context.io;
    const { bold, dim, yellow } = this.context.colours;
    writeLine(stderr, `${bold("mcpvm")} — chat with a model that runs JavaScript in a sandbox. /help lists the commands.`);
    try {
      const m = this.chat.model();
      writeLine(stderr, dim(`model: ${m.provider}:${m.model}`));
    } catch (error) {
      if (!isMcpvmError(error) || !error.code.startsWith("LLM_")) throw error;
      // A setting that cannot work (a provider typo, a missing key) is named: "none configured" sends the person to the wrong fix.
      if (error.code === "LLM_NOT_CONFIGURED") writeLine(stderr, `${yellow("No LLM configured")}: chat is off, everything else works. ${HOW_TO_CONFIGURE}`);
      else writeLine(stderr, `${yellow("Chat is off")}: ${error.message} Everything else works.`);
    }
    const loaded = await this.host.hostModules().catch((error: unknown) => {
      this.report(error);
      return undefined;
    });
    if (loaded === undefined) return;
    // The same diagnosis as `mcpvm doctor`: a config typo is named as the cause, not "enable the plugin".
    const mcp = await mcpBanner(this.host, this.context.io.env, loaded.refused.find((r) => r.plugin === "mcp")?.error.message);
    writeLine(stderr, dim(displayInline(mcp.headline)));
    for (const line of mcp.problems) writeLine(stderr, yellow(displayInline(line)));
    // What the banner said is not said again as a warning at the first /run or model call.
    const shown = [mcp.headline, ...mcp.problems].join("\n");
    this.host.refusals.markSaid(loaded.refused.filter((r) => shown.includes(r.error.message.split("\n", 1)[0] ?? r.error.message)));
  }

  private async names(kind: NameKind): Promise<readonly string[]> {
    if (kind === "server") return Object.keys(this.host.config.mcpServers ?? {});
    if (kind === "known-server") return KNOWN_SERVERS.map((s) => s.name);
    if (kind === "profile") return availableProfiles(this.host.config, this.host.paths.configFile).map((p) => p.name);
    return (await this.host.plugins.list()).plugins.map((p) => p.name);
  }
}
