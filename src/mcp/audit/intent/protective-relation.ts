/**
 * Relations to the person (user-relation.ts) that honest tools write in the attacks' voice, told apart by what the
 * words are about rather than by their shape:
 * - the person's own words quoted ("if they say "my project folder"", "to answer "was it that rainy?"") are what they
 *   say or ask, not words dictated to the model;
 * - "check whether the transfer has been approved by the user" asks a question the tool answers, it claims nothing;
 * - a secret kept out of the reply ("do not repeat the value back") or refused even when asked ("don't store passwords
 *   or card numbers even if asked") protects the person; hiding what a tool did from them does not.
 */
import type { UserRelationKind } from "./user-relation.js";

const PERSON = `(?:the |a )?(?:user|customer|client|person|patient|people|they|someone|he|she)s?`;

/** The person as the subject of the verb of speech: they say it, the model is not told to. */
const PERSON_SPEAKS = new RegExp(`\\b(?:if|when|whenever|once|as|where|what) ${PERSON} (?:\\w+ )?$|\\b${PERSON} (?:might|may|would|could|usually|often) $`);

/** A quotation that is a question: what the person asks. */
const QUOTED_QUESTION = /["'«“‘][^"'»”’]{2,80}\?["'»”’]/;

/** An indirect question the tool answers ("check whether …", "tells you if …"). */
const INDIRECT_QUESTION = /\b(?:check|checks|checking|see|find out|tells? you|shows?|reports?|returns?|look up|verify|confirm) (?:whether|if)\b[^.;!?]*$/;

/** Secrets and sensitive records: what a protective refusal or silence is about. */
const SENSITIVE =
  /\b(?:passwords?|passphrases?|secrets?|credentials?|tokens?|api keys?|private keys?|keys?|pins?|card numbers?|cvv|codes?|recovery (?:phrase|codes?)|seed phrase|health (?:details|data|records?)|diagnos\w*|social security numbers?|ssn|the value|values)\b/;

/** Whether the relation matched at [index, end) of the folded view is protective or reported, not an order about the person. */
export function isProtectiveRelation(kind: UserRelationKind, view: string, index: number, end: number): boolean {
  const matched = view.slice(index, end);
  const before = view.slice(Math.max(0, index - 80), index);
  if (kind === "script") return PERSON_SPEAKS.test(before) || QUOTED_QUESTION.test(matched);
  if (kind === "bypass" && INDIRECT_QUESTION.test(before)) return true;
  // The secret is named in what is kept back or refused, or just before it ("… pastes a credential. … do not repeat the value back").
  if (kind === "quiet" && /\b(?:repeat|echo|quote)/.test(matched)) return SENSITIVE.test(view.slice(Math.max(0, index - 200), end));
  if (kind === "bypass" && /\beven (?:if|when|though)\b/.test(matched)) return SENSITIVE.test(matched.replace(/\beven (?:if|when|though)\b.*$/, ""));
  return false;
}
