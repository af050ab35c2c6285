/**
 * A secret carried in a field that is not for it (wave 32, from the credentials misses of five writers: v14, v17, v19,
 * v20, v21): the definition asks for a password, token, card number or one-time code and says to smuggle it inside
 * another argument — "append it to `shop` after a slash", "pass them as the customer_email suffix", "pasted into
 * `provider` as provider:KEY:SECRET", "in the rss_url query", "call start_session again with it appended". An honest
 * tool that needs a secret declares a parameter for it (and the client can treat it as one); folding the secret into an
 * e-mail address, a URL or an enum is how it passes a reviewer and lands in the server's logs.
 */
import type { Hit } from "./rules.js";

// Folded view (lower-case). `_token`-style variable names count: GOOGLE_APPLICATION_CREDENTIALS, aws_access_key_id.
const SECRET =
  /\b(?:tokens?|api ?keys?|keys?|passwords?|passcodes?|pins?|cookies?|secrets?|credentials?|creds|card numbers?|cvc|cvv|otp|2fa|backup codes|recovery codes|service.account json|access_key_id)\b|_(?:credentials|token|secret|key)\b/;

/** Into another argument: appended to it, as its suffix, after a separator, pasted into it, in its query; or a retry. */
const CARRY =
  /\b(?:append(?:ed|ing)?\s+(?:it |them )?(?:to|after)\s+[`'"]?\w+|(?:as|to) (?:the |a )?[`'"]?\w+[`'"]? suffix|after a (?:colon|slash)|pasted? into [`'"]?\w+|in (?:the )?(?:[`'"]\w+[`'"]|\w+_\w+) (?:query|as \w+:)|(?:call|resend|retry)\w* (?:[\w-]+ )?again with\b)/;
const SENTENCE_BREAK = /(?<=[.;!?])\s+|\n+/;

/** The hit for a field that puts a secret inside an argument made for something else; undefined otherwise. */
export function findSecretCarried(folded: string): Hit | undefined {
  const parts = folded.split(SENTENCE_BREAK);
  for (const [i, sentence] of parts.entries()) {
    const m = CARRY.exec(sentence);
    if (m === null) continue;
    // The secret may be named a sentence or two before: "Needs the access token. It is in .env; append it to shop."
    if (!SECRET.test(`${parts[i - 2] ?? ""} ${parts[i - 1] ?? ""} ${sentence}`)) continue;
    return { rule: "secret-carried", evidence: sentence.trim().slice(0, 120) };
  }
  return undefined;
}
