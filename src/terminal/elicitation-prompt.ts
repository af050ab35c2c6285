import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";
import { formFields, parseFieldAnswer, type FormField } from "../mcp/elicitation/form-fields.js";
import { errorMessage } from "../util/errors.js";
import type { CommandContext } from "./command.js";
import { displayInline } from "./display.js";
import { writeLine } from "./io.js";
import { ask, QuestionWithdrawnError } from "./prompt.js";

/** What an upstream server asked for: a form (fields from a schema) or a URL the person should open. */
export type ElicitationRequest =
  | { readonly mode?: "form"; readonly message: string; readonly requestedSchema?: unknown }
  | { readonly mode: "url"; readonly message: string; readonly url: string; readonly elicitationId?: string };

/** The part of `elicitation/create` params the terminal shows. */
export function elicitationRequestOf(params: ElicitRequest["params"]): ElicitationRequest {
  return params.mode === "url" ? { mode: "url", message: params.message, url: params.url } : { message: params.message, requestedSchema: params.requestedSchema };
}

/**
 * Where the questions are typed. The REPL passes its own line reader's (one readline on the
 * terminal at a time, so the form and the REPL's editor never read the same keys); other faces
 * use prompt.ts. `ask` rejects when the person presses Ctrl-C or input ends.
 */
export interface LineAsker {
  ask(question: string): Promise<string>;
}

/** Wrong answers to one field before the whole form is cancelled (a stuck script must not loop forever). */
const MAX_TRIES = 3;

/**
 * Asks the person on the terminal what an MCP server requested (`elicitation/create`) while a guest
 * call was running. Nothing is answered for them: --yes does not fill a form, and with no terminal
 * the request is declined with a line that says why. Server text is shown escaped.
 */
export async function askElicitationOnTerminal(context: CommandContext, server: string, request: ElicitationRequest, asker?: LineAsker): Promise<ElicitResult> {
  const { stderr } = context.io;
  const lines: LineAsker = asker ?? { ask: (question) => ask(context, question, false) };
  // --yes confirms nothing here either: the person filled the form, so the person says whether it goes.
  const yesNo = async (question: string) => /^y(es)?$/i.test((await lines.ask(`${question} [y/N] `)).trim());
  const who = displayInline(server);
  if (!context.interactive) {
    writeLine(stderr, `MCP server ${who} asked for input ("${displayInline(request.message)}") but there is no terminal to ask on: declined. Run it on a terminal to answer.`);
    return { action: "decline" };
  }
  if (request.mode === "url") return askUrl(context, who, request, yesNo);
  let fields: FormField[];
  try {
    fields = formFields(request.requestedSchema);
  } catch (error) {
    writeLine(stderr, `MCP server ${who} asked for input with a form mcpvm cannot show (${errorMessage(error)}): declined.`);
    return { action: "decline" };
  }
  writeLine(stderr, `MCP server ${who} asks: ${displayInline(request.message)}`);
  writeLine(stderr, "  (Enter keeps the default in [brackets]; Ctrl-C cancels.)");
  const content: Record<string, unknown> = {};
  try {
    for (const field of fields) {
      const answer = await askField(context, field, lines);
      if (answer === "give-up") return { action: "cancel" };
      if (answer !== undefined) content[field.key] = answer;
    }
    if (!(await yesNo(`Send this to ${who}?`))) {
      writeLine(stderr, `Not sent: ${who} is told you declined.`);
      return { action: "decline" };
    }
  } catch (error) {
    // Withdrawn (the run ended, the server gave up): already said, and nobody is listening for the answer.
    if (!(error instanceof QuestionWithdrawnError)) writeLine(stderr, `Cancelled: ${who} is told you cancelled the form.`);
    return { action: "cancel" };
  }
  return { action: "accept", content: content as ElicitResult["content"] & object };
}

async function askField(context: CommandContext, field: FormField, lines: LineAsker): Promise<unknown> {
  const question = fieldQuestion(field);
  for (let attempt = 1; attempt <= MAX_TRIES; attempt += 1) {
    const parsed = parseFieldAnswer(field, await lines.ask(question));
    if (parsed.ok) return parsed.value;
    writeLine(context.io.stderr, `  ${displayInline(parsed.message)}`);
  }
  writeLine(context.io.stderr, `No valid answer for ${displayInline(field.title)} after ${MAX_TRIES} tries: cancelled.`);
  return "give-up";
}

function fieldQuestion(field: FormField): string {
  const lines: string[] = [];
  if (field.description !== undefined) lines.push(`  ${displayInline(field.description)}`);
  if (field.choices !== undefined) field.choices.forEach((choice, index) => lines.push(`    ${index + 1}) ${displayInline(choice.label)}`));
  const hint = field.kind === "boolean" ? " (y/n)" : field.kind === "choices" ? " (numbers, comma-separated)" : "";
  const shown = field.default === undefined ? "" : ` [${displayInline(Array.isArray(field.default) ? field.default.join(", ") : String(field.default))}]`;
  const mark = field.required ? "*" : "";
  lines.push(`  ${displayInline(field.title)}${mark}${hint}${shown}: `);
  return lines.join("\n");
}

async function askUrl(context: CommandContext, who: string, request: { readonly message: string; readonly url: string }, yesNo: (question: string) => Promise<boolean>): Promise<ElicitResult> {
  const { stderr } = context.io;
  let shown: string;
  try {
    const url = new URL(request.url);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("not a web address");
    shown = url.href;
  } catch {
    writeLine(stderr, `MCP server ${who} asked you to open an address that is not a web URL: declined.`);
    return { action: "decline" };
  }
  writeLine(stderr, `MCP server ${who} asks you to open a page: ${displayInline(request.message)}`);
  writeLine(stderr, `  ${displayInline(shown)}`);
  writeLine(stderr, "  Open it in your browser and finish there; the server is told when you agree.");
  try {
    return (await yesNo("Did you open it (or will you)?")) ? { action: "accept" } : { action: "decline" };
  } catch {
    writeLine(stderr, "Cancelled.");
    return { action: "cancel" };
  }
}
