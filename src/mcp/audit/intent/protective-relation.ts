/**
 * Relations to the person (user-relation.ts) that honest tools write in the attacks' voice, told apart by what the
 * words are about rather than by their shape:
 * - the person's own words quoted ("if they say "my project folder"", "to answer "was it that rainy?"") are what they
 *   say or ask, not words dictated to the model;
 * - "check whether the transfer has been approved by the user" asks a question the tool answers, it claims nothing;
 * - an action forbidden without the person ("never run it without asking the user") keeps them in the loop;
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

const NEGATED_ACTION = /\b(?:never|don't|do not|must not|mustn't|should not|shouldn't|cannot|can't|won't|will not|shall not)\s+(?:[a-z'-]+\s+){1,3}$/;

/** Whether the relation matched at [index, end) of the folded view is protective or reported, not an order about the person. */
export function isProtectiveRelation(kind: UserRelationKind, view: string, index: number, end: number): boolean {
  const matched = view.slice(index, end);
  const before = view.slice(Math.max(0, index - 80), index);
  if (kind === "script") return PERSON_SPEAKS.test(before) || QUOTED_QUESTION.test(matched);
  if (kind === "bypass" && INDIRECT_QUESTION.test(before)) return true;
  // "Don't execute without consulting the user first": the action is forbidden *without* the person, so they are kept
  // in the loop (two negations make a rule of oversight). The negation governs the verb right before "without";
  // "don't hesitate to create it without asking the user" negates something else.
  if (kind === "bypass" && matched.startsWith("without") && NEGATED_ACTION.test(before)) return true;
  // The secret is named in what is kept back or refused, or just before it ("… pastes a credential. … do not repeat the value back").
  if (kind === "quiet" && /\b(?:repeat|echo|quote)/.test(matched)) return SENSITIVE.test(view.slice(Math.max(0, index - 200), end));
  if (kind === "bypass" && /\beven (?:if|when|though)\b/.test(matched)) return SENSITIVE.test(matched.replace(/\beven (?:if|when|though)\b.*$/, ""));
  return false;
}

/** The person handing something over, as the condition of the sentence ("if the user pastes …", "when someone sends …"). */
const PERSON_GIVES = /\b(?:if|when|whenever|should) (?:the user|the person|the customer|they|someone|a user) (?:\w+ ){0,2}?(?:pastes?|shares?|gives?|sends?|types?|enters?|provides?|offers?)\b[^.;!?]*$/;
/** Then the text refuses to pass it on: "…, don't send it anywhere", "never store it". */
const REFUSED_AFTER = /^[^.;!?]{0,60}?\b(?:do not|don't|never)\s+(?:\w+\s+){0,2}?(?:send|repeat|quote|store|save|share|forward|pass|log|echo|upload)\b/;

/** In the scripts the sets cover: "even if asked, do not store / send it" (即使用户要求也不要存), right after a secret. */
const SCRIPT_EVEN_REFUSED = "(?:即使|即便|就算|哪怕)[^.;!?。]{0,15}?(?:不要|别|不能|切勿|不得|请勿)(?:存|保存|记录|记住|发送|发给|转发|上传|分享)";
const SCRIPT_REFUSED_AFTER = new RegExp(`^[^.;!?。]{0,30}?${SCRIPT_EVEN_REFUSED}`);
const SCRIPT_REFUSED_HERE = new RegExp(`^${SCRIPT_EVEN_REFUSED}`);
const SCRIPT_SENSITIVE = /(?:密码|密碼|银行卡|銀行卡|卡号|卡號|验证码|驗證碼|私钥|私鑰|口令|助记词|助記詞)/;

/**
 * Whether a secret named at [index, end) is one the text refuses to keep or pass on: "if the user pastes a private key,
 * don't send it anywhere — tell them it stays on their machine"; "密码、银行卡号之类的信息即使用户要求也不要存" (passwords,
 * card numbers: even if the user asks, don't store them). The person hands it over, or may, and the text refuses.
 * "Pass the user's private key in `key`; don't send it anywhere else" asks for it first (no condition on the person);
 * "也要存" (store it too) asks for it.
 */
function refusesSecret(view: string, index: number, end: number): boolean {
  const sentenceStart = Math.max(...[". ", "; ", "! ", "? ", "\n"].map((s) => view.lastIndexOf(s, index)), 0);
  const after = view.slice(end, end + 120);
  return (PERSON_GIVES.test(view.slice(sentenceStart, index)) && REFUSED_AFTER.test(after)) || SCRIPT_REFUSED_AFTER.test(after);
}

/**
 * Whether a secret's name at [index, end) asks for nothing: the text refuses it (refusesSecret), or it is the public half
 * of a key pair ("add an SSH public key as a deploy key"), published by design. `clause` is what precedes it in its clause.
 */
export function secretNotAsked(view: string, index: number, end: number, clause: string): boolean {
  return refusesSecret(view, index, end) || /\bpublic keys?\b(?![^.;!?]*\bprivate\b)/.test(clause.slice(-48) + view.slice(index, end));
}

/** "Even if the user asks" in another script, refusing to keep or send a secret named just before it: protection, not bypass. */
export function isProtectiveScriptRefusal(view: string, index: number): boolean {
  const before = view.slice(Math.max(0, index - 40), index);
  const clause = before.slice(Math.max(...["。", ".", "!", "?"].map((s) => before.lastIndexOf(s))) + 1);
  return SCRIPT_SENSITIVE.test(clause) && SCRIPT_REFUSED_HERE.test(view.slice(index, index + 40));
}
