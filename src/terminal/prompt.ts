import { createInterface } from "node:readline";
import type { CommandContext } from "./command.js";
import { pauseSpinners } from "./spinner.js";

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

/** A line from the person; `masked` hides what is typed (secrets). */
export function ask(context: CommandContext, question: string, masked: boolean): Promise<string> {
  const { stdin, stderr } = context.io;
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
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer);
    });
    rl.on("SIGINT", () => {
      rl.close();
      reject(new Error("cancelled"));
    });
  });
  return asked.finally(resume);
}
