/*
 * Headers that carry a credential are sent only to the origin the guest named: a redirect to another
 * origin (even an allowed one) drops them, as browsers and undici do for Authorization. Beyond the
 * standard ones, an API key travels in headers of every name (x-api-key, x-goog-api-key, private-token,
 * x-auth-token, ocp-apim-subscription-key, …), so a name is treated as a credential when one of its
 * words names one, and the user can list more in the plugin's `credentialHeaders` setting.
 */

const STANDARD = new Set(["authorization", "proxy-authorization", "cookie"]);
const CREDENTIAL_WORDS = new Set(["key", "apikey", "token", "secret", "auth", "authorization", "session", "password", "passwd", "credential", "credentials", "signature", "cookie"]);

/** Whether a header (its name lower-cased) is dropped on a cross-origin redirect; `configured`: lower-cased names from the config. */
export function isCredentialHeader(name: string, configured: ReadonlySet<string>): boolean {
  if (STANDARD.has(name) || configured.has(name)) return true;
  return name.split(/[-_.]/).some((word) => CREDENTIAL_WORDS.has(word));
}

export function withoutCredentials(headers: Readonly<Record<string, string>>, configured: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !isCredentialHeader(name, configured)));
}
