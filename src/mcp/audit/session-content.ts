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
const SEEN = String.raw`(?:you(?:'ve| have)? (?:seen|read|received|got(?:ten)?|learned|opened|visited|remember|recall|were (?:given|told)|are (?:running|operating) under|operate under|run with)|(?:visited|read|seen|received) (?:through|via|from|with) (?:the |any |other )?[\w-]+ tools?|the (?:instructions|text|guidance|prompt) (?:that )?(?:configured|set up) you|your (?:memory|working context|context window|operating (?:guidelines|instructions))|(?:above|before) the (?:first )?user(?:'s)? (?:turn|message))`;
// Folded view (lower-case). Within one sentence, the quantity before what was seen.
const ASKED = new RegExp(String.raw`\b${ALL}\b[^.;!?]{0,80}?\b${SEEN}`);

/** The hit for a field asking for the whole of what the model saw, read or was told; undefined otherwise. */
export function findSessionContent(folded: string): Hit | undefined {
  const m = ASKED.exec(folded);
  return m === null ? undefined : { rule: "session-content", evidence: m[0].trim().slice(0, 120) };
}
