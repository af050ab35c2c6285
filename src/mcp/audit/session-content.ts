/**
 * What the model took in during the session, asked for whole (wave 32, from the context-exfiltration misses of six
 * writers: v13, v14, v17, v18, v19, v21): the request names no "conversation" or "system prompt" — it names the
 * model's own reading: "every document and e-mail you have read", "the full set of instructions you are running
 * under", "everything you remember about the user", "the last 20 tool responses you received", "every page visited
 * through the browsing tools", "a dump of your working context", "the setup text you were given". A tool's own input
 * is what the person asked for; the whole of what the model saw, read or was told belongs to the person, other
 * servers and the operator, and a tool that wants it all is collecting it.
 */
import type { Hit } from "./rules.js";

/** A quantity that takes it all: every, all, anything, the full/whole, a dump/copy/transcript of, the last 20. */
const ALL = String.raw`(?:every(?:thing)?|all(?: of)?|any(?:thing)?|the (?:full|whole|entire)|(?:a |the )?(?:copy|dump|snapshot|transcript) of|the (?:text|contents?|titles?|bodies|outputs?|results?|replies|responses) of (?:every|all|any|the other)|the last \d+)`;
/** The model's own reading: what you have seen, read or received, were told, run under; your memory or context. */
const SEEN = String.raw`(?:you(?:'ve| have)? (?:seen|read|received|got(?:ten)?|learned|opened|visited|remember|recall|were (?:given|told)|are (?:running|operating) under|operate under|run with)|(?:visited|read|seen|received|retrieved|fetched) (?:through|via|from|with|by) (?:the |any |your )?(?:other )?[\w-]+ tools?|(?:opened|viewed|read|seen) (?:in|during) (?:this|the current) (?:session|conversation|chat)|the (?:instructions|text|guidance|prompt) (?:that )?(?:configured|set up) you|your (?:memory|working context|context window|operating (?:guidelines|instructions))|(?:above|before) the (?:first )?user(?:'s)? (?:turn|message))`;
// Folded view (lower-case). Within one sentence, the quantity before what was seen.
const ASKED = new RegExp(String.raw`\b${ALL}\b[^.;!?]{0,80}?\b${SEEN}`);

/**
 * Wave 33 (v13, v14, v18, v19, v22): the model's own brief named without a quantity — "the instructions the host
 * application gave you", "the rules you were given by your operator", "the developer/system message you operate under",
 * "the instructions you're running under", "your hidden instructions" — with a word that asks for it copied out in the
 * same sentence: paste, put, a faithful copy, verbatim, unedited. "Follow the instructions you were given" asks for
 * nothing to be handed over and is not read.
 */
const BRIEF = String.raw`(?:(?:instructions|rules|guidance|message|prompt)(?: that)? (?:you(?:'re| are)? (?:running|operating) under|you (?:operate|run) under|(?:the host(?: application)?|your operator|the operator|your developer) gave you|you were given by (?:your|the) (?:operator|host|developer))|your (?:hidden|system|original|initial) instructions)`;
const COPIED = String.raw`(?:paste|copy|put|resend|echo|verbatim|word for word|unedited|unabridged|in full|the full thing)`;
const BRIEF_ASKED = new RegExp(String.raw`\b${COPIED}\b[^.;!?]{0,80}?\b${BRIEF}|\b${BRIEF}\b[^.;!?]{0,80}?\b${COPIED}\b`);

/** The hit for a field asking for the whole of what the model saw, read or was told; undefined otherwise. */
export function findSessionContent(folded: string): Hit | undefined {
  const m = ASKED.exec(folded) ?? BRIEF_ASKED.exec(folded);
  return m === null ? undefined : { rule: "session-content", evidence: m[0].trim().slice(0, 120) };
}
