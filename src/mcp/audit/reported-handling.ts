/**
 * A secret handled by someone else, named so the model can refuse it: "if the user pastes a private key, don't send it
 * anywhere", "customers sometimes paste passwords into tickets — if you see one, don't quote it". The verb of handing
 * over has the person (or a third party) as its subject, not the model, and the text goes on to forbid passing the
 * secret on. Both must hold: a reported paste alone ("once the user pastes the seed phrase, include it in …") still asks.
 */

/** The person or a third party as the subject right before the verb, in a conditional or a habitual statement. */
const REPORTED_SUBJECT =
  /(?:\b(?:if|when|whenever|once|should|in case)\s+)?\b(?:the user|a user|users|the customer|customers|a customer|people|someone|somebody|they|he|she|the patient|the person|the owner|the client|clients)(?:\s+(?:sometimes|accidentally|mistakenly|often|occasionally|ever|already|may|might|do|does))*\s+$/;

/** A protective order about the secret after it: not to pass it on, repeat it, store it or act on it. */
const PROTECTIVE_ORDER =
  /\b(?:do not|don't|never|must not|should not|shouldn't)\s+(?:\w+\s+){0,2}?(?:send|repeat|quote|store|save|share|forward|pass|post|log|echo|include|copy|call|use|upload|submit|accept)\b/;

const TWO_SENTENCES = /^[^.!?]*(?:[.!?]+(?:\s+[^.!?]*)?)?/;

/** Whether the verb at `index` in `view` reports what someone else does with a secret that the text then says not to pass on. */
export function isReportedHandling(view: string, index: number, end: number): boolean {
  const before = view.slice(Math.max(0, index - 60), index);
  if (!REPORTED_SUBJECT.test(before)) return false;
  // The protective order in the rest of this sentence or the next one.
  return PROTECTIVE_ORDER.test(TWO_SENTENCES.exec(view.slice(end, end + 240))?.[0] ?? "");
}
