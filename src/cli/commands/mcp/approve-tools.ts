import { isBlockedHeld, type HeldTool, type ServerCatalog, type ToolAcceptance } from "../../../mcp/service/index.js";
import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayInline } from "../../../terminal/display.js";
import { confirm } from "../../../terminal/prompt.js";
import { typedConfirmation } from "./typed-confirmation.js";

export interface HeldReview {
  /** What acceptTools did; undefined when nothing was put forward. */
  readonly outcome: ToolAcceptance | undefined;
  /** The person said no to the held tools (or nobody could be asked). */
  readonly declined: boolean;
  /** --accept-blocked names that are not a held tool. */
  readonly unmatchedAcceptBlocked: readonly string[];
}

/**
 * `--accept-blocked a,b` (repeatable). A value that is exactly a held tool's name is taken whole,
 * so a name with a comma in it can still be given.
 */
export function parseAcceptBlocked(values: readonly string[], held: readonly HeldTool[]): Set<string> {
  const names = new Set(held.map((h) => h.name));
  const out = new Set<string>();
  for (const value of values) {
    if (names.has(value)) out.add(value);
    else for (const part of value.split(",")) if (part.trim() !== "") out.add(part.trim());
  }
  return out;
}

/**
 * Asks about a server's held tools and accepts what the person agreed to. A yes (or --yes) covers
 * the held tools without block-level findings, plus the block-level ones named with
 * --accept-blocked; any other block-level tool is accepted only when its name is typed on a
 * terminal. Tools whose names hold control characters are never put forward.
 */
export async function reviewHeldTools(service: McpService, catalog: ServerCatalog, acceptBlocked: readonly string[], context: CommandContext): Promise<HeldReview> {
  const held = catalog.held.filter((h) => h.reason !== "unsafe-name");
  const named = parseAcceptBlocked(acceptBlocked, catalog.held);
  const unmatchedAcceptBlocked = [...named].filter((name) => !catalog.held.some((h) => h.name === name));
  const byYes = held.filter((h) => !isBlockedHeld(h) || named.has(h.name));
  const byTyping = held.filter((h) => isBlockedHeld(h) && !named.has(h.name));

  const submitted: HeldTool[] = [];
  let declined = false;
  if (byYes.length > 0) {
    const list = byYes.map((h) => displayInline(h.name)).join(", ");
    if (await confirm(context, `Accept ${byYes.length === 1 ? "the held tool" : `${byYes.length} held tools`} shown above (${list}), findings and changes included?`)) submitted.push(...byYes);
    else declined = true;
  }
  const typed: string[] = [];
  if (!declined && context.interactive) {
    for (const h of byTyping) {
      const question = `${h.name} has block-level audit findings (shown above). Type its name to accept it anyway, or press Enter to keep it held:`;
      if (await typedConfirmation(context, h.name, question)) {
        submitted.push(h);
        typed.push(h.name);
      }
    }
  }
  if (byYes.length === 0 && byTyping.length > 0 && !context.interactive) declined = !context.assumeYes;
  const outcome =
    submitted.length === 0 ? undefined : await service.acceptTools(catalog.server, submitted, { acceptBlocked: [...byYes.filter((h) => named.has(h.name)).map((h) => h.name), ...typed] });
  return { outcome, declined, unmatchedAcceptBlocked };
}
