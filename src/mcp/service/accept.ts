import { hasUnsafeDisplayChars } from "../../terminal/display.js";
import { toolDefinitionHash, type PinnableTool } from "../pins/index.js";
import { isBlockedHeld, type HeldTool } from "./trust.js";

/** A held tool as the person was shown it: its name and the hash of the definition they reviewed. */
export interface ReviewedTool {
  readonly name: string;
  readonly hash: string;
  /** The findings shown with it; they can only make a tool harder to accept, never easier. */
  readonly findings?: HeldTool["findings"];
}

/** What accepting held tools did, tool by tool. Nothing in any list but `accepted` was pinned. */
export interface ToolAcceptance {
  readonly accepted: string[];
  /** Still held: a block-level finding, and the tool was not named (`--accept-blocked`, or typed). */
  readonly blocked: string[];
  /** Still held for good: the name holds control or invisible characters. */
  readonly neverExposed: string[];
  /** Still held: the server changed the definition again after it was shown. */
  readonly changedSinceReview: string[];
  /** Not listed under that name (gone, or shown masked because the name held a secret). */
  readonly notListed: string[];
}

export interface AcceptanceInput {
  /** The server's current listing (after filters and caps). */
  readonly listing: readonly PinnableTool[];
  /** The held tools of the service's own last trust decision: the findings the service trusts. */
  readonly lastHeld: readonly HeldTool[];
  readonly reviewed: readonly ReviewedTool[];
  /** Tools the person named explicitly, which may be accepted despite block-level findings. */
  readonly acceptBlocked: ReadonlySet<string>;
}

/**
 * Sorts reviewed tools into what may be pinned and what stays held. A block-level finding (from
 * the service's own decision, or shown to the person) needs the tool named in `acceptBlocked`:
 * a blanket yes is never enough for it.
 */
export function sortAcceptance(input: AcceptanceInput): ToolAcceptance {
  const out: ToolAcceptance = { accepted: [], blocked: [], neverExposed: [], changedSinceReview: [], notListed: [] };
  const listed = new Map(input.listing.map((tool) => [tool.name, tool]));
  for (const item of input.reviewed) {
    const tool = listed.get(item.name);
    if (tool === undefined) out.notListed.push(item.name);
    else if (toolDefinitionHash(tool) !== item.hash) out.changedSinceReview.push(item.name);
    else if (hasUnsafeDisplayChars(item.name)) out.neverExposed.push(item.name);
    else if (isBlocked(item, input.lastHeld) && !input.acceptBlocked.has(item.name)) out.blocked.push(item.name);
    else out.accepted.push(item.name);
  }
  return out;
}

function isBlocked(item: ReviewedTool, lastHeld: readonly HeldTool[]): boolean {
  const decided = lastHeld.find((held) => held.name === item.name && held.hash === item.hash);
  return (decided !== undefined && isBlockedHeld(decided)) || (item.findings ?? []).some((f) => f.severity === "block");
}
