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

/** Resolves true to let the call go ahead. Supplied by a face that can ask a person (REPL, run on a TTY). */
export type ConfirmCall = (request: CallConfirmationRequest) => Promise<boolean>;

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
