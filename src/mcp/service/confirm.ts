import type { McpConfirmMode } from "../config/index.js";

export interface ToolAnnotationsLike {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
}

export interface CallConfirmationRequest {
  readonly server: string;
  readonly tool: string;
  readonly jsName: string;
  readonly args: unknown;
  readonly annotations: ToolAnnotationsLike | undefined;
  /** Why the person is asked: every call (`always`) or a tool that may change things (`destructive`). */
  readonly policy: Exclude<McpConfirmMode, "never">;
}

/**
 * Why a call did not go ahead: the person answered no (`declined`), or there was nobody to ask
 * (`no-terminal`: stdin is not a terminal and --yes was not given). The model is told which, since
 * "declined by the user" when nobody was asked sends it the wrong way.
 */
export type CallRefusal = "declined" | "no-terminal";

/**
 * Resolves true to let the call go ahead; false (the person said no) or a CallRefusal to stop it.
 * Supplied by a face that can ask a person (REPL, run on a TTY).
 */
export type ConfirmCall = (request: CallConfirmationRequest) => Promise<boolean | CallRefusal>;

/** The refusal a ConfirmCall answer stands for, or undefined when the call may go ahead. */
export function callRefusal(answer: boolean | CallRefusal): CallRefusal | undefined {
  if (answer === true) return undefined;
  return answer === false ? "declined" : answer;
}

/** What the guest (and through it the model) is told when a call was stopped before it was sent. */
export function refusedCallMessage(server: string, tool: string, refusal: CallRefusal): string {
  const call = `The call to ${server}.${tool}`;
  if (refusal === "declined") return `${call} was declined by the user; nothing was sent to the server.`;
  return (
    `${call} was not confirmed: no terminal to ask on, so nobody was asked; nothing was sent to the server. ` +
    `The person can allow it with \`mcpvm --yes\` (or \`mcpvm run --yes\`), or by setting "confirm": "never" for server "${server}" in config.json.`
  );
}

/**
 * Per MCP, a tool is read-only only when it says `readOnlyHint: true`, and a non-read-only tool is
 * destructive unless it says `destructiveHint: false`. Annotations are only trusted because the
 * tool's definition was pinned as approved; a held tool is never called.
 */
export function needsConfirmation(policy: McpConfirmMode, annotations: ToolAnnotationsLike | undefined): boolean {
  if (policy === "never") return false;
  if (policy === "always") return true;
  if (annotations?.readOnlyHint === true) return false;
  return annotations?.destructiveHint !== false;
}
