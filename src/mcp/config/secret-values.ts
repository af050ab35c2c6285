/**
 * Which configured values are secrets, to be masked wherever mcpvm prints, logs or returns text.
 * Masking every value would mask `true`, `info` or `text` everywhere — in tool schemas, results and
 * log lines — and break them; so a value counts when its name says it is one (…_TOKEN, Authorization,
 * X-Api-Key), when it is a URL carrying credentials, or when it has the shape of a token. Values typed
 * at an input prompt are always secrets and do not come through here.
 */
const SECRET_NAME = /(key|token|secret|passw|pwd|auth|credential|private|cookie|session|signature|bearer|cert)/i;
const URL_WITH_CREDENTIALS = /^[a-z][a-z0-9+.-]*:\/\/[^/\s@]*:[^/\s@]*@/i;
const MIN_LENGTH = 4;
const TOKEN_LENGTH = 16;

export function isLikelySecret(name: string, value: string): boolean {
  if (value.length < MIN_LENGTH) return false;
  if (SECRET_NAME.test(name)) return true;
  if (URL_WITH_CREDENTIALS.test(value)) return true;
  if (/\s/.test(value) || value.length < TOKEN_LENGTH) return false;
  if (/^[./~]/.test(value) || /^[A-Za-z]:\\/.test(value) || /^https?:\/\//i.test(value)) return false;
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}
