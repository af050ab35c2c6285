/**
 * Ordering an honest tool writes about its own server and its own job, told apart from steering over other tools:
 * - "any other tool here", "the other tools on this server": the server's own tools, unnamed;
 * - "fine to call whenever the user asks", "staging can be deployed whenever the user asks for a build": a permission
 *   tied to the person's request, not an order to call the tool at every mention;
 * - "use this instead of editing a sent invoice": an alternative to an action the tool refuses, not to another tool;
 * - "the conversation between the customer and agents", "confirm in this conversation": a ticket's record, the place
 *   the person says yes — not the model's own context.
 */

/** What follows a reference to other tools when they are this server's ("… any other tool here"). */
export const HERE_AFTER = /^ (?:here|on this server|in this server|of this server|from this server|in this (?:integration|connector|app))\b/;

/** A permission before a mention of the person's request: "fine to call", "can be deployed", "safe to run". */
const PERMISSION_BEFORE = /\b(?:fine|ok|okay|safe|cheap|free) to (?:call|use|run|invoke)\b[^.;!?]{0,30}$|\bcan be (?:\w+ed|called|used|run)\b[^.;!?]{0,30}$/;

/** "Instead of editing …": an action named as the alternative, but not another way of looking things up elsewhere. */
const INSTEAD_OF_ACTION = /^ (?!using|calling|invoking|searching|browsing|asking|running|querying|checking)\w+ing\b/;

/** Whether a steering or cross-tool match stays within the tool's own server or the person's request. */
export function staysOwn(feature: string, view: string, index: number, end: number): boolean {
  if (feature === "cross-tool") return HERE_AFTER.test(view.slice(end, end + 30));
  if (feature !== "steering") return false;
  const matched = view.slice(index, end);
  if (/^whenever the user\b/.test(matched)) return PERMISSION_BEFORE.test(view.slice(Math.max(0, index - 80), index));
  if (/\binstead of$/.test(matched)) return INSTEAD_OF_ACTION.test(view.slice(end, end + 30));
  return false;
}

/** "The conversation between the customer and agents": other people's conversation, a record the tool returns. */
const OTHERS_BETWEEN = /^\s+between (?![^.;!?]{0,40}\b(?:you|yourself|the assistant|the model|ai|me|us)\b)/;

/** "The patient must confirm in this conversation": where the person says yes, not a conversation handed anywhere. */
const CONSENT_IN = /\b(?:confirm|confirms|confirmed|approve|approves|approved|agree|agrees|consent|consents|go-ahead|go ahead|say so|says so|said so)\b(?: \w+){0,3}? (?:in|during|within) $/;

/** Whether a mention of a conversation names someone else's record or the place of the person's consent. */
export function notTheModelsContext(view: string, index: number, end: number): boolean {
  return OTHERS_BETWEEN.test(view.slice(end, end + 60)) || CONSENT_IN.test(view.slice(Math.max(0, index - 60), index));
}
