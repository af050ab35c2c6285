import { isVerbose, stderrColumns, type CommandContext } from "../../terminal/command.js";
import { REPL_START_WITH_YES } from "../../terminal/hints.js";
import { writeLine } from "../../terminal/io.js";
import { renderCallConfirmation, renderYesConfirmation } from "../../terminal/render/call-confirmation.js";
import { renderFlowConfirmation } from "../../terminal/render/flow-confirmation.js";
import type { FlowRequest } from "../../mcp/flow/index.js";
import type { Spinner } from "../../terminal/spinner.js";
import type { CallAnswer, CallConfirmationRequest } from "../../mcp/service/index.js";
import type { PersonInteraction } from "../tools/types.js";
import type { LineReader } from "./line-reader.js";

/** Why a call's or a flow's question is withdrawn before it is answered. */
const RUN_ENDED = "the run that asked has ended (its time budget ran out, or it was cancelled)";

/**
 * The person at the REPL's keyboard, as the tools and the MCP call gate see them. Questions are
 * asked one at a time (parallel guest calls queue up), each answered on the REPL's own line
 * reader; Ctrl-C at a question answers no and cancels the running step.
 */
export class ReplPerson implements PersonInteraction {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly context: CommandContext,
    private readonly reader: LineReader,
    private readonly spinner: Spinner,
    private readonly cancelStep: () => void,
    /** The running step's signal (undefined between steps): a question queued by a step dies with it. */
    private readonly stepSignal: () => AbortSignal | undefined = () => undefined,
  ) {}

  get canAsk(): boolean {
    return this.context.interactive;
  }

  /**
   * Someone at the keyboard to answer what only a person can: forms and sampling. --yes makes the
   * REPL non-interactive for confirmations, but a person still sits at a real terminal.
   */
  get atKeyboard(): boolean {
    return this.context.interactive || (this.context.assumeYes && this.reader.terminal);
  }

  /** Resolves once every question asked or queued so far has been answered (or withdrawn). */
  async idle(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  /** A line to the person, on stderr, with the spinner out of the way. */
  tell(line: string): void {
    this.spinner.stop();
    writeLine(this.context.io.stderr, line);
  }

  /**
   * Runs `work` (a whole form) as one question in the queue, so a confirmation for a parallel guest
   * call never lands between two of its fields.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const step = this.stepSignal();
    const turn = this.queue.catch(() => undefined).then(() => {
      if (step?.aborted === true) throw new Error("the step it belonged to has ended");
      this.spinner.stop();
      return work();
    });
    this.queue = turn;
    return turn;
  }

  /**
   * One answer typed on the REPL's own line reader (no second readline on the terminal). Ctrl-C or
   * the end of input rejects: the form is cancelled, the step goes on (a second Ctrl-C stops it).
   */
  async askLine(question: string, signal?: AbortSignal): Promise<string> {
    const outcome = await this.readAnswer(question, signal);
    if (outcome.kind !== "line") throw new Error(outcome.kind === "eof" ? "input ended" : outcome.kind);
    return outcome.text;
  }

  /** Ends the question being read, if any, saying why (a line on stderr). */
  withdrawQuestion(why: string): void {
    if (!this.reader.waiting) return;
    this.reader.withdraw();
    writeLine(this.context.io.stderr, this.context.colours.dim(`(question withdrawn: ${why})`));
  }

  /** One read; `signal` (the server withdrawing its request, the run ending) withdraws the question, saying `why`. */
  private async readAnswer(question: string, signal?: AbortSignal, why = "the server no longer needs an answer") {
    if (signal?.aborted === true) return { kind: "withdrawn" as const };
    const onAbort = () => this.withdrawQuestion(why);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.reader.read(question);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.reader.suspend();
    }
  }

  confirm(details: string, question: string, signal?: AbortSignal, why?: string): Promise<boolean> {
    return this.confirmUnlessCancelled(details, question, signal, why).then((answer) => answer === true);
  }

  /**
   * Parallel guest calls queue their questions; after Ctrl-C on one, the others of that step must
   * not be asked at the main prompt (they would take its line reader and leave it closed). An open
   * question is withdrawn when its step ends (Repl.asStep); the queued ones answer `cancelled`.
   */
  private confirmUnlessCancelled(details: string, question: string, signal?: AbortSignal, why?: string): Promise<boolean | "cancelled"> {
    const step = this.stepSignal();
    const asked = this.queue.catch(() => undefined).then((): Promise<boolean | "cancelled"> | "cancelled" => (step?.aborted === true || signal?.aborted === true ? "cancelled" : this.ask(details, question, signal, why)));
    this.queue = asked;
    return asked;
  }

  async progress<T>(text: string, work: () => Promise<T>): Promise<T> {
    this.spinner.start(text);
    try {
      return await work();
    } finally {
      this.spinner.stop();
    }
  }

  /** The gate for guest MCP calls that are not read-only (host.setConfirmCall). */
  async confirmCall(request: CallConfirmationRequest): Promise<CallAnswer> {
    const err = this.context.io.stderr;
    if (this.context.assumeYes) {
      this.spinner.stop();
      writeLine(err, this.context.colours.dim(renderYesConfirmation(request, { verbose: isVerbose(this.context), columns: stderrColumns(this.context) })));
      return "yes-flag";
    }
    if (!this.context.interactive) {
      this.spinner.stop();
      writeLine(err, `${renderCallConfirmation(request)}\nNot confirmed: no terminal to ask on. ${REPL_START_WITH_YES}, or set \`confirm: "never"\` for this server.`);
      return "no-terminal";
    }
    // The run's wall budget runs on while the person reads: when it ends, the question goes with it.
    return this.confirmUnlessCancelled(renderCallConfirmation(request), "Allow this call?", request.signal, RUN_ENDED);
  }

  /**
   * An information flow between two servers (host.setAskFlow): asked like a call, never answered by
   * --yes; `cancelled` when nobody answered, so the audit log does not record the person's no.
   */
  async confirmFlow(request: FlowRequest): Promise<boolean | "cancelled"> {
    return this.confirmUnlessCancelled(renderFlowConfirmation(request), "Allow this flow for the rest of this run?", request.signal, RUN_ENDED);
  }

  /** The answer; `cancelled` when the question was withdrawn (its run ended) before anyone answered. */
  private async ask(details: string, question: string, signal?: AbortSignal, why?: string): Promise<boolean | "cancelled"> {
    if (signal?.aborted === true) return "cancelled";
    this.spinner.stop();
    writeLine(this.context.io.stderr, details);
    const outcome = await this.readAnswer(`${this.context.colours.bold(question)} [y/N] `, signal, why);
    if (outcome.kind === "interrupt") this.cancelStep();
    // Withdrawn by Ctrl-C (the step cancelled) is the person's no; by the run ending, nobody answered.
    if (outcome.kind === "withdrawn") return this.stepSignal()?.aborted === true ? false : "cancelled";
    return outcome.kind === "line" && /^y(es)?$/i.test(outcome.text.trim());
  }
}
