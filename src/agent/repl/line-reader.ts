import { createInterface, emitKeypressEvents, type Interface } from "node:readline";
import { writeSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { appendHistory, HISTORY_SIZE, keepInHistory } from "./history.js";

/** "withdrawn": the question stopped mattering before it was answered (its step ended, its server gave up). */
export type ReadOutcome = { readonly kind: "line"; readonly text: string } | { readonly kind: "eof" } | { readonly kind: "interrupt" } | { readonly kind: "withdrawn" };

/** How a newline inside a pasted text shows in the line being edited; it is a newline again in the line read. */
export const PASTED_NEWLINE = "\u2424";

// The terminal's bracketed paste (xterm's mode 2004): pasted text arrives between ESC[200~ and ESC[201~.
const PASTE_ON = "\u001b[?2004h";
const PASTE_OFF = "\u001b[?2004l";

export type AsyncCompleter = (line: string) => Promise<[string[], string]>;

export interface LineReaderOptions {
  readonly input: Readable & { isTTY?: boolean };
  readonly output: Writable & { isTTY?: boolean };
  readonly completer?: AsyncCompleter;
  /** Oldest first, as loaded from the history file. */
  readonly history?: readonly string[];
  readonly historyFile?: string;
  /** Called when saving history fails; the session goes on. */
  readonly onHistoryError?: (error: unknown) => void;
}

export interface ReadMode {
  /** A main-prompt line: recorded in history, with tab completion. Answers to questions are not. */
  readonly history?: boolean;
  /** Echo nothing typed (secrets). */
  readonly masked?: boolean;
}

/**
 * Lines from the person, one readline interface at a time. The interface is closed while work
 * runs (`suspend`), so prompts opened by commands and Ctrl-C as a signal both behave normally;
 * lines that arrived in the same chunk (a paste) are queued, not lost.
 */
export class LineReader {
  private rl: Interface | undefined;
  private mode: ReadMode = {};
  private readonly queue: ReadOutcome[] = [];
  private waiter: ((outcome: ReadOutcome) => void) | undefined;
  private ended = false;
  private closing = false;
  /** Bracketed paste is on (main-prompt reads on a terminal): a paste's newlines stay in the line. */
  private pasteAsOne = false;
  /** Newest first, as readline keeps it. */
  private readonly history: string[];
  /** History appends in order, one after another, so lines land as typed and leaving can wait for them. */
  private historyWrites: Promise<void> = Promise.resolve();
  readonly terminal: boolean;

  constructor(private readonly options: LineReaderOptions) {
    this.terminal = options.input.isTTY === true && options.output.isTTY === true;
    this.history = [...(options.history ?? [])].reverse().slice(0, HISTORY_SIZE);
    options.input.once("end", () => {
      this.ended = true;
    });
    if (this.terminal) {
      this.holdPastedNewlines();
      // Left on, the shell after mcpvm could show ^[[200~ around pastes: off however the process ends.
      // A signal's exit has muted the stream by then (cli/signal-guard.ts): straight to the terminal.
      process.once("exit", () => {
        const fd = (options.output as { fd?: unknown }).fd;
        if (!this.pasteAsOne || typeof fd !== "number") return;
        try {
          writeSync(fd, PASTE_OFF);
        } catch {
          // The terminal is gone (SIGHUP): nothing to restore.
        }
      });
    }
  }

  private pasteOff(): void {
    if (this.pasteAsOne) this.options.output.write(PASTE_OFF);
    this.pasteAsOne = false;
  }

  /**
   * Without this, every line of a multi-line paste at the prompt is sent as a message of its own.
   * readline turns the terminal's bytes into keypress events on the input; inside a bracketed paste
   * a return becomes PASTED_NEWLINE, so the paste is one line, sent when the person presses Enter.
   */
  private holdPastedNewlines(): void {
    const input = this.options.input;
    emitKeypressEvents(input);
    const emit = input.emit.bind(input);
    let pasting = false;
    let afterReturn = false;
    input.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
      const key = event === "keypress" ? (args[1] as { name?: string } | undefined) : undefined;
      if (key?.name === "paste-start" || key?.name === "paste-end") {
        pasting = key.name === "paste-start";
        return true;
      }
      if (pasting && this.pasteAsOne && (key?.name === "return" || key?.name === "enter")) {
        // A pasted CRLF is one newline, not two.
        const crlf = afterReturn && key.name === "enter";
        afterReturn = key.name === "return";
        return crlf || emit("keypress", PASTED_NEWLINE, { sequence: PASTED_NEWLINE, ctrl: false, meta: false, shift: false });
      }
      // Only another key ends a CRLF pair: its LF may come in the next chunk ("data" events come between).
      if (key !== undefined) afterReturn = false;
      return emit(event, ...args);
    }) as typeof input.emit;
  }

  read(prompt: string, mode: ReadMode = {}): Promise<ReadOutcome> {
    // A question still waiting (its step ended under it) must not be left hanging forever.
    this.withdraw();
    const queued = this.queue.shift();
    if (queued !== undefined) {
      if (queued.kind === "line" && !this.terminal) this.options.output.write(`${prompt}${mode.masked === true ? "" : queued.text}\n`);
      return Promise.resolve(queued);
    }
    if (this.ended && this.rl === undefined) return Promise.resolve({ kind: "eof" });
    if (this.rl === undefined || this.mode.history !== mode.history || this.mode.masked !== mode.masked) {
      this.suspend();
      this.open(mode);
    }
    const rl = this.rl as Interface;
    rl.setPrompt(prompt);
    rl.prompt();
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** True while a read waits for the person. */
  get waiting(): boolean {
    return this.waiter !== undefined;
  }

  /** Ends the read in progress, if any, with "withdrawn" (nothing typed is taken as its answer). */
  withdraw(): void {
    const waiter = this.waiter;
    if (waiter === undefined) return;
    this.waiter = undefined;
    this.suspend();
    this.options.output.write("\n");
    waiter({ kind: "withdrawn" });
  }

  /** Closes the interface (raw mode off, input paused) while other work owns the terminal. */
  suspend(): void {
    const rl = this.rl;
    if (rl === undefined) return;
    this.rl = undefined;
    this.pasteOff();
    this.closing = true;
    rl.close();
    this.closing = false;
  }

  private open(mode: ReadMode): void {
    this.mode = mode;
    const completer = mode.history === true ? this.options.completer : undefined;
    const rl = createInterface({
      input: this.options.input,
      output: this.options.output,
      terminal: this.terminal,
      history: mode.history === true ? [...this.history] : [],
      historySize: mode.history === true ? HISTORY_SIZE : 0,
      removeHistoryDuplicates: true,
      ...(completer === undefined
        ? {}
        : { completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void) => void completer(line).then((r) => callback(null, r), () => callback(null, [[], line])) }),
    });
    if (mode.masked === true) {
      // readline echoes typed characters through _writeToOutput; let only the prompt and newlines through.
      const internal = rl as unknown as { _writeToOutput: (text: string) => void };
      const write = internal._writeToOutput.bind(rl);
      let prompted = false;
      internal._writeToOutput = (text: string) => {
        if (!prompted) {
          prompted = true;
          write(text);
        } else if (text.includes("\n")) write("\n");
      };
    }
    // Only at the main prompt: an answer or a /run block line is one line, a pasted one included.
    if (this.terminal && mode.history === true) {
      this.pasteAsOne = true;
      this.options.output.write(PASTE_ON);
    }
    rl.on("line", (typed) => {
      // History keeps the one-line form, so recalling a pasted message brings all of it back.
      if (mode.history === true && keepInHistory(typed)) this.remember(typed);
      const text = typed.replaceAll(PASTED_NEWLINE, "\n");
      // Without a terminal nothing echoes input, so the transcript would read "mcpvm> ⚙ …". A line
      // answering the prompt shown right now is echoed here; a queued one is echoed with its prompt in read().
      if (!this.terminal && this.waiter !== undefined) this.options.output.write(mode.masked === true ? "\n" : `${text}\n`);
      this.deliver({ kind: "line", text });
    });
    rl.on("SIGINT", () => {
      this.suspend();
      this.options.output.write("^C\n");
      this.deliver({ kind: "interrupt" });
    });
    rl.on("close", () => {
      if (this.closing) return;
      this.rl = undefined;
      this.pasteOff();
      this.ended = this.ended || !this.terminal;
      this.deliver({ kind: "eof" });
    });
    this.rl = rl;
  }

  private remember(text: string): void {
    if (this.history[0] !== text) this.history.unshift(text);
    this.history.length = Math.min(this.history.length, HISTORY_SIZE);
    const file = this.options.historyFile;
    if (file !== undefined) {
      this.historyWrites = this.historyWrites.then(() => appendHistory(file, text)).catch((error: unknown) => this.options.onHistoryError?.(error));
    }
  }

  /** Resolves once every history line so far is on disk (the session is leaving: its last line must not be lost). */
  historySaved(): Promise<void> {
    return this.historyWrites;
  }

  private deliver(outcome: ReadOutcome): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter !== undefined) waiter(outcome);
    else this.queue.push(outcome);
  }
}
