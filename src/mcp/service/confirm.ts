import type { McpConfirmMode } from "../config/index.js";

export interface ToolAnnotationsLike {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface CallConfirmationRequest {
  readonly server: string;
  readonly tool: string;
  readonly jsName: string;
  readonly args: unknown;
  readonly annotations: ToolAnnotationsLike | undefined;
  /** Why the person is asked: every call (`always`), a tool not marked read-only (`writes`), or one that may delete or overwrite (`destructive`). */
  readonly policy: Exclude<McpConfirmMode, "never">;
  /** The run's signal: aborted when the run ends (its budget ran out, it was cancelled) before anyone answers; the question is moot then. */
  readonly signal?: AbortSignal;
}

/**
 * Why a call did not go ahead: the person answered no (`declined`), there was nobody to ask
 * (`no-terminal`: stdin is not a terminal and --yes was not given), or the person cancelled the step
 * while this question waited behind another (`cancelled`: never asked). The model and the audit log
 * are told which, since "declined by the user" when nobody was asked sends them the wrong way.
 */
export type CallRefusal = "declined" | "no-terminal" | "cancelled";

/**
 * A ConfirmCall's answer: true (the person said yes) or `yes-flag` (--yes answered for them; the
 * audit log records which) let the call go ahead; false (the person said no) or a CallRefusal stop it.
 */
export type CallAnswer = boolean | "yes-flag" | CallRefusal;

/** Asks about one call; supplied by a face that can ask a person (REPL, run on a TTY). */
export type ConfirmCall = (request: CallConfirmationRequest) => Promise<CallAnswer>;

/** The refusal a ConfirmCall answer stands for, or undefined when the call may go ahead. */
export function callRefusal(answer: CallAnswer): CallRefusal | undefined {
  if (answer === true || answer === "yes-flag") return undefined;
  return answer === false ? "declined" : answer;
}

/** What the guest (and through it the model) is told when a call was stopped before it was sent. */
export function refusedCallMessage(server: string, tool: string, refusal: CallRefusal): string {
  const call = `The call to ${server}.${tool}`;
  if (refusal === "declined") return `${call} was declined by the user; nothing was sent to the server.`;
  if (refusal === "cancelled") return `${call} was not made: the user cancelled the step before being asked about it; nothing was sent to the server.`;
  return (
    `${call} was not confirmed: no terminal to ask on, so nobody was asked; nothing was sent to the server. ` +
    `The person can allow it by giving \`--yes\` to the command that made it (\`mcpvm --yes\`, \`mcpvm run --yes\`, \`mcpvm mcp call --yes\`), or by setting "confirm": "never" for server "${server}" in config.json.`
  );
}

/**
 * Per MCP, a tool is read-only only when it says `readOnlyHint: true`, and a non-read-only tool is
 * destructive unless it says `destructiveHint: false`. Under `writes` (the default) every tool not
 * marked read-only is confirmed: a tool that "only" sends, posts, creates or uploads can do as much
 * harm as one that deletes. Annotations are only trusted this far because the tool's definition was
 * pinned as approved; a held tool is never called.
 */
export function needsConfirmation(policy: McpConfirmMode, annotations: ToolAnnotationsLike | undefined): boolean {
  switch (policy) {
    case "never":
      return false;
    case "always":
      return true;
    case "writes":
      return annotations?.readOnlyHint !== true;
    case "destructive":
      return annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;
  }
}

/**
 * What the server claims about a tool, worded as claims for the confirmation prompt: annotations
 * are hints a server writes about itself, not facts mcpvm can check. A write that may reach beyond
 * this machine gets its own line, since what it sends cannot be taken back (MCP assumes open world
 * when the hint is absent).
 */
export function describeToolHints(annotations: ToolAnnotationsLike | undefined): string[] {
  const a = annotations ?? {};
  const claims: string[] = [];
  if (a.readOnlyHint === true) claims.push("this tool is read-only");
  if (a.readOnlyHint === false) claims.push("it changes things");
  if (a.destructiveHint === false) claims.push("it does not delete or overwrite");
  if (a.destructiveHint === true) claims.push("it may delete or overwrite");
  if (a.openWorldHint === true) claims.push("it reaches beyond this machine");
  if (a.openWorldHint === false) claims.push("it stays within its own data");
  const lines = [claims.length === 0 ? "the server gives no hints about this tool" : `the server says ${claims.join(", ")} (its own hints: unchecked claims)`];
  if (a.readOnlyHint !== true && a.openWorldHint !== false) {
    lines.push(`it may send data beyond this machine${a.openWorldHint === true ? "" : " (no openWorldHint)"}: what it sends cannot be taken back`);
  }
  return lines;
}

/** Why a call is asked about, in the words of its server's policy. */
export function confirmationReason(policy: Exclude<McpConfirmMode, "never">): string {
  if (policy === "always") return "this server is set to confirm every call";
  if (policy === "destructive") return "the tool may delete or overwrite: it is marked neither read-only nor non-destructive";
  return "the tool is not marked read-only";
}
