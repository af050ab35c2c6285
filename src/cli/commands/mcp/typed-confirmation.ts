import type { CommandContext } from "../../../terminal/command.js";
import { displayInline } from "../../../terminal/display.js";
import { ask } from "../../../terminal/prompt.js";

/**
 * A confirmation that cannot be given by reflex: the person types the exact name shown (a server
 * with code-loading env, a tool with block-level findings). Only asked on a terminal.
 */
export async function typedConfirmation(context: CommandContext, expected: string, question: string): Promise<boolean> {
  if (!context.interactive) return false;
  const answer = await ask(context, `${displayInline(question)} `, false);
  return answer.trim() === expected;
}
