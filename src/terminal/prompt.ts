import { createInterface } from "node:readline";
import { McpvmError } from "../util/errors.js";
import type { CommandContext } from "./command.js";
import { pauseSpinners } from "./spinner.js";

/** Ctrl-C at a question: the command stops, exit 130 like Ctrl-C anywhere else (docs/USAGE.md). */
export class CancelledError extends McpvmError<"CANCELLED"> {}

/** A question taken back before it was answered (the `withdrawn` signal of `ask`): nobody needs the answer now. */
export class QuestionWithdrawnError extends McpvmError<"QUESTION_WITHDRAWN"> {}

// On a terminal readline takes Ctrl-C as a key, so no SIGINT reaches the process: a command that
// stops its work on SIGINT (`run`, `mcp call`) listens here too, or the work would go on after it.
const interruptListeners = new Set<() => void>();

/** Calls `listener` when the person presses Ctrl-C at a question; returns how to stop listening. */
export function onPromptInterrupt(listener: () => void): () => void {
  interruptListeners.add(listener);
  return () => void interruptListeners.delete(listener);
}

/**
 * Yes/no on the terminal. --yes answers yes; where no person can answer (no TTY) the answer is no,
 * and the caller says how to proceed unattended.
 */
export async function confirm(context: CommandContext, question: string): Promise<boolean> {
  if (context.assumeYes) return true;
  if (!context.interactive) return false;
  const answer = await ask(context, `${question} [y/N] `, false);
  return /^y(es)?$/i.test(answer.trim());
}

/**
 * A line from the person; `masked` hides what is typed (secrets). Ctrl-D (the end of input) is an
 * empty answer, which every question takes as its default (no); Ctrl-C rejects with CancelledError.
 */
export function ask(context: CommandContext, question: string, masked: boolean, withdrawn?: AbortSignal): Promise<string> {
  const { stdin, stderr } = context.io;
  if (withdrawn?.aborted === true) return Promise.reject(new QuestionWithdrawnError("QUESTION_WITHDRAWN", "the question was withdrawn before it was asked"));
  // A spinner (a server starting) would erase the question 80 ms later; it resumes after the answer.
  const resume = pauseSpinners();
  const asked = new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: stdin, output: stderr, terminal: true });
    if (masked) {
      // Echo nothing but the prompt: readline writes typed characters through _writeToOutput.
      const internal = rl as unknown as { _writeToOutput: (text: string) => void };
      let prompted = false;
      internal._writeToOutput = (text: string) => {
        if (!prompted) {
          stderr.write(text);
          prompted = true;
        } else if (text.includes("\n")) stderr.write("\n");
      };
    }
    let settled = false;
    rl.question(question, (answer) => {
      settled = true;
      resolve(answer);
      rl.close();
    });
    rl.on("SIGINT", () => {
      settled = true;
      stderr.write("\n");
      reject(new CancelledError("CANCELLED", "cancelled (Ctrl-C at the question); nothing more was done"));
      rl.close();
      for (const listener of [...interruptListeners]) listener();
    });
    // Closed without an answer (Ctrl-D, or stdin ended): unanswered, never a promise left pending,
    // which let the process end with exit 0 having done nothing, or wait forever beside a live server.
    rl.on("close", () => {
      if (settled) return;
      settled = true;
      stderr.write("\n");
      resolve("");
    });
    // A server's question whose run ended (its time budget, Ctrl-C) or that the server took back:
    // the open readline would hold the terminal's input, and with it the process, forever.
    const withdraw = () => {
      if (settled) return;
      settled = true;
      stderr.write("\n(question withdrawn: the server no longer needs an answer, or the run that asked has ended)\n");
      reject(new QuestionWithdrawnError("QUESTION_WITHDRAWN", "the question was withdrawn before it was answered"));
      rl.close();
    };
    withdrawn?.addEventListener("abort", withdraw, { once: true });
    rl.once("close", () => withdrawn?.removeEventListener("abort", withdraw));
  });
  return asked.finally(resume);
}
