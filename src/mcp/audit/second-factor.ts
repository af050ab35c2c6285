/**
 * A whole login, second factor included, asked for by one tool (wave 33, from the credentials misses of five writers:
 * v14, v17, v19, v22 and the training writers w19a, w19b): a tool that takes a person's password *and* the one-time code
 * from their phone or authenticator app, their recovery codes or the answer to their security question. Each part alone
 * has honest uses (a password manager stores passwords as data, a phone-verification tool takes the code it texted);
 * together they are the account itself, handed over with the check that exists so that a password alone is not enough.
 * An honest integration with another service asks for an API key or an OAuth grant, not for both halves of the
 * person's sign-in.
 */
import { excerpt } from "./evidence.js";
import { identifierWords, textViews } from "./normalise.js";
import type { Hit } from "./rules.js";
import type { SchemaProperty } from "./schema-walk.js";

/**
 * The parts of a sign-in, read in a parameter's name (as words) and its description (folded). A TOTP *secret* or seed
 * (what a password manager stores, bitwarden's `totp`) is the enrolment, not today's code: the word `otp` alone as a
 * name word is the code.
 */
const PARTS: ReadonlyArray<readonly [string, RegExp]> = [
  ["password", /\b(?:password|passwd|passphrase|passcode|wachtwoord|senha|contraseña|passwort|mot de passe)\b|\blogin,? (?:and|plus|with|together with) (?:the |their |his |her )?(?:2fa|mfa|otp|one.time|recovery|backup|authenticator)\b/],
  ["one-time code", /\b(?:otp|mfa|2fa|two.factor|one.time (?:code|password|passcode|pin)|authenticator(?: app)? code|sms.?code|steam guard|card.?reader code)\b/],
  ["recovery codes", /\b(?:recovery|backup) (?:codes?|key)\b/],
  ["security answer", /\bsecurity (?:question|answer)\b/],
];
/** The enrolment (a TOTP secret, seed or URI to store), or a switch for the factor, is no sign-in. */
const ENROLMENT = /\b(?:secret|seed|uri|qr|enabled?|required|type|method|length)\b/;

function partsOf(text: string): Set<string> {
  return new Set(PARTS.filter(([, p]) => p.test(text)).map(([name]) => name));
}

/**
 * The hit for a tool whose free-text parameters, together, ask for a password and a second factor (or two second
 * factors) of the same person; undefined otherwise. One parameter may ask for both ("their login, plus the 2FA code").
 */
export function findSecondFactorRequest(properties: readonly SchemaProperty[]): Hit | undefined {
  const seen = new Map<string, SchemaProperty>();
  for (const property of properties) {
    if (!property.freeText) continue;
    const name = identifierWords(property.name).join(" ");
    const description = textViews(property.description).folded;
    if (ENROLMENT.test(name)) continue;
    const parts = partsOf(`${name} : ${description}`);
    // A description naming a sign-in part as what it is not ("not the password") is the prose's business, not this.
    for (const part of parts) if (!seen.has(part)) seen.set(part, property);
  }
  const secondFactors = [...seen.keys()].filter((p) => p !== "password");
  if (secondFactors.length === 0 || seen.size < 2) return undefined;
  const shown = [...new Set(seen.values())].map((p) => `${p.name}: ${p.description}`).join(" | ");
  return { rule: "second-factor-request", evidence: `${[...seen.keys()].join(" + ")} asked for: ${excerpt(shown, 0, Math.min(shown.length, 40))}` };
}
