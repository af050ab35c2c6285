import { definitionFields } from "./audit-tool.js";
import { isAboutContext, signalsOf, type IntentSignal } from "./intent/score.js";
import { toolUnits } from "./intent/tool-intent.js";
import { identifierWords } from "./normalise.js";
import type { AuditedTool } from "./types.js";

/**
 * How the LLM reviewer's opinion is combined with the rules. The reviewer is a second reader, not a
 * second judge on its own: a "malicious" verdict holds a tool only where the rules also see a sign of
 * intent in the very string the reviewer quotes, and only with a reason. Elsewhere it is reported
 * (severity info) and the person sees it, but nothing is held on the reviewer's word alone.
 *
 * Why: a reviewer flags what it reads as instructions; on real listings that is mostly the listing
 * talking to the model about its own job ("Add a message to a … conversation", "instead of moving to
 * trash", "base64-encoded content"). Measured with the test reviewer, 10 of 73 benign tools of held-out
 * set v3 were held that way, against 4 by the rules alone. Where the rules saw something too weak to hold
 * on its own (a fixed address beside "some other tool" in one parameter), the reviewer's reasoned "malicious"
 * is the second, independent piece of evidence that makes it a hold: that is where it adds recall.
 */

/** Signals that say what a text wants: one of them in the quoted string corroborates the reviewer. */
const INTENT: ReadonlySet<IntentSignal> = new Set(["context-request", "credential-request", "credential-harvest", "secrecy", "steering", "shadowing", "decode-hint"]);
/** Signals of how a text is written or where it points: two different ones together corroborate ("some other tool" + an address). */
const POINTERS: ReadonlySet<IntentSignal> = new Set(["redirect", "cross-tool", "destination"]);

/** The intent signals the rules see in one string of the definition (by JSON path), read as the tool's own score reads it. */
export function signalsAt(tool: AuditedTool, jsonPath: string, ownToolNames: ReadonlySet<string> = new Set([tool.name])): IntentSignal[] {
  const fields = definitionFields(tool).fields.filter((f) => f.jsonPath === jsonPath);
  const about = isAboutContext(identifierWords(tool.name).join(" "));
  return [...new Set(toolUnits(fields, ownToolNames).flatMap((unit) => signalsOf(unit, about).map((s) => s.signal)))];
}

/** Whether the rules' own signals in the quoted string back the reviewer's verdict. */
export function corroborated(signals: readonly IntentSignal[]): boolean {
  return signals.some((s) => INTENT.has(s)) || signals.filter((s) => POINTERS.has(s)).length >= 2;
}
