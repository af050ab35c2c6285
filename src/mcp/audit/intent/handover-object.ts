/**
 * Whether a verb of handing over near a secret's name really hands the secret over. Honest tools name secrets as
 * things they work on: "List repositories the token can see", "a password reset e-mail", "store them in their password
 * manager", "who read or changed secrets", "the most common way cloud credentials leak". The word is there; no one is
 * asked to pass a secret anywhere.
 */
import { OWN_RETURN, STRONG_HANDOVER } from "./feature-patterns.js";

/** A secret's name used as a modifier of another noun: the thing named is a reset, a manager, an approval, not a secret. */
const MODIFIED_NOUN =
  /^(?:s|es)?\s+(?:resets?|reset links?|managers?|vaults?|approvals?|allowances?|polic(?:y|ies)|strength|rotation|expiry|expiration|requirements?|rules?|changes?|methods?|scopes?|permissions?|lifetimes?|age|prompts?|fields?|forms?|screens?|pages?)\b/;

/** A secret's name followed by its own verb: it is the subject of the clause ("the token can see", "credentials leak"). */
const SUBJECT_OF = /^\s+(?:can|could|will|would|may|might|has|have|had|is|are|was|were|leaks?|leaked|expires?|expired|grants?|allows?|sees?|stays?|lives?|belongs?)\b/;

/** A sentence ends between two points (not at "e.g. " or "i.e. "). */
const SENTENCE_BREAK = /(?<!\b[a-z])[.!?;](?:\s|$)|[。！？；]/;

/** A verb in a relative or interrogative clause ("who read or changed secrets") reports what someone did. */
const RELATIVE_BEFORE = /\b(?:who|which)\s+$/;

/** Whether `verb` (at..end in `text`) hands over the secret at secretAt..secretEnd. */
export function handsOver(text: string, verb: { at: number; end: number }, secret: { at: number; end: number }): boolean {
  if (MODIFIED_NOUN.test(text.slice(secret.end, secret.end + 24)) || SUBJECT_OF.test(text.slice(secret.end, secret.end + 16))) return false;
  // "… the most common way credentials leak; recommend short-lived tokens": a verb in another sentence governs nothing here.
  if (verb.end <= secret.at && SENTENCE_BREAK.test(text.slice(verb.end, secret.at))) return false;
  if (RELATIVE_BEFORE.test(text.slice(Math.max(0, verb.at - 12), verb.at))) return false;
  // "List repositories the token can see": the description's opening verb of returning names what the tool returns,
  // unless the same sentence also hands something over.
  if (verb.at === leadingWordAt(text) && OWN_RETURN.test(text.slice(verb.at)) && !STRONG_HANDOVER.test(firstSentence(text))) return false;
  return true;
}

/** Whether a secret's name is used as something other than the secret (a modifier, a subject). */
export function namesOtherThanSecret(text: string, secretEnd: number): boolean {
  return MODIFIED_NOUN.test(text.slice(secretEnd, secretEnd + 24)) || SUBJECT_OF.test(text.slice(secretEnd, secretEnd + 16));
}

const leadingWordAt = (text: string): number => /^\W*/.exec(text)?.[0].length ?? 0;

const firstSentence = (text: string): string => /^[^.!?;]*/.exec(text)?.[0] ?? text;
