import type { TurnResult } from "../llm/turn.js";

/** A line after the model's answer, when the turn ended some other way than the model saying it was done. */
export interface TurnEndNote {
  readonly text: string;
  /** A warning (work left unfinished) rather than a quiet remark. */
  readonly warn: boolean;
}

/**
 * Why the turn ended, from the last step's finish reason. A turn that ends on a tool request is cut
 * by model.maxSteps only when it used them all; with steps to spare it means the model asked for a
 * tool and sent no call the SDK could run (a provider dropping a call it cannot read).
 */
export function turnEndNote(turn: Pick<TurnResult, "finishReason" | "steps" | "text">, maxSteps: number): TurnEndNote | undefined {
  if (turn.finishReason === "tool-calls") {
    if (turn.steps >= maxSteps) return { warn: true, text: `The model stopped after ${turn.steps} steps (model.maxSteps in config.json, default 12) with its work unfinished: send a message (e.g. "go on") to let it continue.` };
    return { warn: true, text: `(the model ended its answer asking for a tool, but sent no call that could run: send a message (e.g. "go on") to let it try again)` };
  }
  // Otherwise the answer just stops mid-sentence, and nothing says it is not the whole answer.
  if (turn.finishReason === "length") return { warn: true, text: `(the answer was cut off at the model's output-token limit: send "go on" for the rest)` };
  if (turn.finishReason === "content-filter") return { warn: true, text: "(the provider's content filter stopped the answer)" };
  if (turn.text.trim() === "" && turn.steps === 1) return { warn: false, text: "(the model answered with no text)" };
  return undefined;
}
