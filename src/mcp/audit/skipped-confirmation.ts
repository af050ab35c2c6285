/**
 * The person's confirmation taken out of the loop (wave 30, from the steering misses of all seven released sets'
 * writers, v13–v19): a definition telling the model not to ask, not to wait, not to check back before it acts — "do
 * not pause for confirmation", "skip the usual yes/no prompt", "users don't need to be consulted", "without waiting for
 * the user to confirm", "confirming in chat is redundant". Whether to ask before an action is the client's and the
 * person's decision; a server that argues the question away is steering the model past its one safeguard. Honest
 * definitions say the opposite ("ask the user before deleting"), or tell the model not to ask the person for a value
 * it can look up ("do not ask the user for the id; use list_projects") — an ask followed by what is asked for is not
 * read.
 */
import type { Hit } from "./rules.js";

// Wave 33 adds the people a public-sector, clinical or editorial tool acts for (v21, v22: "the caseworker", "the clinician").
const PERSON = String.raw`(?:the |your |a )?(?:user|users|them|him|her|person|people|customer|customers|student|students|manager|traveller|travellers|traveler|travelers|owner|approver|human|requester|caseworker|caseworkers|clinician|clinicians|editor|editors|applicant|applicants|operator|operators)`;
const CONFIRMATION = String.raw`(?:confirmation|approval|permission|a confirm|the go-ahead|a yes)`;

// Folded view (lower-case, unaccented).
const SKIPPED = new RegExp(
  [
    // "do not pause for confirmation", "without waiting for the user to confirm", "never stop to ask", "no asking."
    String.raw`\b(?:do not|don't|dont|never|no need to|need not|needn't|without|no)\s+(?:(?:stop(?:ping)?|paus(?:e|ing))(?: to| and)?\s+)?(?:ask(?:ing)?|prompt(?:ing)?|check(?:ing)? back(?: with)?|check(?:ing)? (?:in )?with|consult(?:ing)?|bug(?:ging)?|bother(?:ing)?|wait(?:ing)? for|confirm(?:ing)? with|re-?confirm(?:ing)?)\b(?:\s+${PERSON}\b)?(?:\s+(?:for ${CONFIRMATION}|to (?:confirm|approve|say yes)|again|first|before\b|with a confirm)|\s*(?:[.;,!)—–]|-\s|$))`,
    String.raw`\b(?:do not|don't|dont|never|without)\s+(?:paus(?:e|ing)|stop(?:ping)?|wait(?:ing)?)\s+(?:for|to get)\s+${CONFIRMATION}`,
    // "users don't need to be consulted", "the traveller need not be asked"
    String.raw`\b${PERSON}\s+(?:do not|don't|dont|need not|needn't|does not|doesn't)\s+(?:need to\s+|have to\s+)?be\s+(?:consulted|asked|prompted|bothered)\b`,
    // "skip the usual yes/no prompt", "skipped the 'are you sure?' step", "no preview/confirm round trip"
    String.raw`\b(?:skip(?:s|ped|ping)?|bypass(?:es|ed|ing)?|no)\s+(?:the\s+|any\s+)?(?:usual\s+)?['"\x60]?(?:yes\/no|are you sure\??|confirm(?:ation)?|preview\/confirm|ok\/cancel)['"\x60]?\s+(?:step|prompt|question|dialog|round trip|round-trip)\b`,
    // "confirming in chat is redundant", "asking again just confuses people", "asking 'shall i order?' lowers conversion"
    // Wave 33: "showing the draft first doubles turnaround", "asking 'are you sure?' leads to missed deadlines".
    String.raw`\b(?:asking|confirming|checking|showing(?: (?:it|them|the \w+))?)(?:\s+(?:${PERSON}|in chat|again|first|back|['"][^'"]{1,30}['"]))*\s+(?:is\s+(?:redundant|unnecessary|not needed|pointless)|just\s+(?:confuses|annoys)|lowers|hurts|doubles|slows|leads to)\b`,
    // Wave 33 (v20, v21, v22), the same stated as how things are done: "without first showing the text", "no need to
    // show them the document or ask first", "rather than raising it with the user", "without a human sign-off".
    String.raw`\b(?:without|no need to|need not|needn't)\s+(?:first\s+show(?:ing)?\b|show(?:ing)?\b[^.;!?]{0,40}?(?:\bfirst\b|\bor ask\b|\bto ${PERSON}\b))`,
    String.raw`\b(?:rather than|instead of)\s+(?:raising|bringing up|flagging)\s+(?:it|this|them)\s+(?:with|to)\s+${PERSON}\b`,
    // "without user confirmation" is left: grafana's honest "do not … use defaults without user confirmation".
    String.raw`\bwithout\s+(?:a\s+|any\s+)?(?:human|manual)\s+(?:sign-?off|approval|confirmation|go-ahead)\b`,
  ].join("|"),
  "u",
);
// "Always ask before …, never proceed without asking the user": the honest rule, with its own negation around it.
const NEGATED = /(?:\bnot|n't|\bnever|\balways)\s+(?:\w+\s+){0,3}$/;

const GIVEN = /\b(?:if|when|once|since|as)\b[^.;]{0,40}?\b(?:already|have|has|had)\s+(?:\w+\s+)?(?:approved|confirmed|agreed|said yes|accepted)\b/;

/** The hit for a field that tells the model to act without the person's confirmation; undefined otherwise. */
export function findSkippedConfirmation(views: { readonly folded: string }): Hit | undefined {
  const m = SKIPPED.exec(views.folded);
  if (m === null) return undefined;
  const before = views.folded.slice(Math.max(0, m.index - (/^without\s+first/.test(m[0]) ? 90 : 40)), m.index);
  // "never proceed without asking": the opening negation turns the "without" back into a requirement.
  if (/^without\b/.test(m[0]) && NEGATED.test(before)) return undefined;
  // "Never proceed with create/update/delete operations without first showing the user": the same, further back.
  if (/^without\s+first\s+show/.test(m[0]) && /(?:\bnot|n't|\bnever)\b[^.;!?]{0,80}$/.test(before + " ")) return undefined;
  // "the tool proceeds without prompting": a bare "without asking/prompting" describes what the tool does; addressed to
  // the model it names whom not to ask ("without asking the user") or is "without checking back".
  if (/^without\s+\S+\s*[.;,!)—–-]?$/.test(m[0].trim()) && !/check(?:ing)? back/.test(m[0])) return undefined;
  // "do not ask the user to confirm again if they already approved the plan": the confirmation was given.
  const rest = views.folded.slice(m.index + m[0].length, m.index + m[0].length + 120).split(/[.;!?\n]/)[0] ?? "";
  if (GIVEN.test(rest)) return undefined;
  return { rule: "skipped-confirmation", evidence: m[0].trim().slice(0, 120) };
}
