import { HOW_TO_CONFIGURE, type ResolvedModel } from "../llm/model-config.js";
import { displayInline } from "../../terminal/display.js";
import { errorMessage } from "../../util/errors.js";
import type { SamplingView } from "./request-view.js";

/** Why a sampling request was not answered; also the audit log's decision word. */
export type SamplingRefusal = "unsupported" | "no-model" | "no-terminal" | "denied";

export type SamplingDecision =
  | { readonly kind: "ask"; readonly model: ResolvedModel }
  | { readonly kind: "refuse"; readonly refusal: SamplingRefusal; readonly message: string };

export interface SamplingSituation {
  /** The configured model; throws (LlmConfigError) when there is none. */
  readonly model: () => ResolvedModel;
  /** A person at a terminal who can be asked. --yes is never a person: sampling is always asked. */
  readonly canAsk: boolean;
}

/**
 * Whether a sampling request can go to the person at all, and if not, the line that says why (shown
 * to the person and sent to the server as the error). Order: what mcpvm cannot do, then no model,
 * then nobody to ask. Pure.
 */
export function decideSampling(view: SamplingView, situation: SamplingSituation): SamplingDecision {
  const who = `MCP server ${displayInline(view.server)} asked the model to write a reply (sampling)`;
  if (view.unsupported !== undefined) return { kind: "refuse", refusal: "unsupported", message: `${who}, but ${view.unsupported}: declined.` };
  let model: ResolvedModel;
  try {
    model = situation.model();
  } catch (error) {
    return { kind: "refuse", refusal: "no-model", message: `${who}, but no model can answer it (${errorMessage(error)}): declined.${/No LLM is configured/.test(errorMessage(error)) ? "" : ` ${HOW_TO_CONFIGURE}`}` };
  }
  if (!situation.canAsk) return { kind: "refuse", refusal: "no-terminal", message: `${who}, but there is no terminal to ask on: declined. Run it on a terminal to confirm each request (--yes never answers sampling).` };
  return { kind: "ask", model };
}

/** The refusal the person's own "no" stands for. */
export function deniedMessage(server: string): string {
  return `MCP server ${displayInline(server)}'s sampling request was declined by the user; nothing was sent to the model.`;
}
