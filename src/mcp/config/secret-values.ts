import { isInheritedEnvName } from "./child-env.js";

/**
 * Which configured env and header values are secrets, masked by value wherever mcpvm prints, logs
 * or returns text (docs/SECURITY.md "Secrets"). A password does not announce itself —
 * `DB_PASS=hunter2hunter`, a passphrase with spaces, a Slack webhook URL, a 6-digit PIN — so every
 * value counts, literal or filled in from `${VAR}`, except:
 *   - values shorter than 4 characters (masking "1" or "on" everywhere protects nothing);
 *   - the public variables and headers below (every child sees PATH, HOME, … anyway);
 *   - values whose shape is public and which masking would break: a lower-case keyword or MIME
 *     type ("text", "true", "production", "application/json"), a host name, a date or version
 *     number, a filesystem path, or a URL without credentials, query or token-like path segment. Masking "text" or "true"
 *     everywhere once turned tool schemas and results into "****" (commit c6a5067).
 * A name that says "secret" (…_TOKEN, …PASS…, PIN, Authorization, webhook…) wins over the shape.
 * Answers to `${input:…}` prompts are always secrets and do not come through here.
 */
export const MIN_MASKED_LENGTH = 4;
/** Below this length, or digits only, a masked value can still be guessed (see weakness()). */
export const MIN_UNGUESSABLE_LENGTH = 8;

/** Public beyond the variables every stdio child inherits (child-env.ts), compared case-insensitively. */
const PUBLIC_ENV_NAMES = new Set(["NODE_ENV", "LANGUAGE", "COLORTERM", "PWD", "HOSTNAME"]);
const PUBLIC_HEADER_NAMES = new Set(["accept", "accept-encoding", "accept-language", "content-type", "user-agent", "mcp-protocol-version"]);

const SECRET_NAME = /(key|token|secret|pass|pwd|auth|credential|private|cookie|session|signature|bearer|cert|webhook|dsn|salt)/i;
/** Short words only as a whole part of the name: PIN, USER_PIN, DB_PW, OTP_CODE — not SHIPPING. */
const SECRET_NAME_PART = /(^|[^a-z])(pin|pw|otp|totp)([^a-z]|$)/i;
const URL_WITH_CREDENTIALS = /^[a-z][a-z0-9+.-]*:\/\/[^/\s@]*:[^/\s@]*@/i;

/** Each part lower-case, upper-case or capitalised: "text", "INFO", "read-only", "application/json", "en_US". */
const KEYWORD_PART = /^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/;
const HOST_NAME = /^(?=.{4,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}(?::\d{1,5})?$/i;
const IP_ADDRESS = /^(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?$|^localhost(?::\d{1,5})?$/i;
/** A date or a version number ("2022-06-28", "v1.4.2"): an API version header, a pinned release. */
const DATE_OR_VERSION = /^(?:\d{4}-\d{2}-\d{2}|v?\d+(?:\.\d+){1,3})$/;
const ABSOLUTE_OR_RELATIVE_PATH = /^(?:\/|~\/|\.\.?\/|[A-Za-z]:[\\/])/;

export function isPublicName(name: string, kind: "env" | "header"): boolean {
  if (kind === "header") return PUBLIC_HEADER_NAMES.has(name.toLowerCase());
  return isInheritedEnvName(name, "win32") || PUBLIC_ENV_NAMES.has(name.toUpperCase());
}

export function hasSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || SECRET_NAME_PART.test(name);
}

function isKeyword(value: string): boolean {
  return value.length <= 40 && value.split(/[._:/+-]/).every((part) => KEYWORD_PART.test(part));
}

/** A path segment that could carry a credential: long, or mixing letters and digits (T0123ABCD). */
function isTokenLike(segment: string): boolean {
  return segment.length >= 20 || (segment.length >= 8 && /[0-9]/.test(segment) && /[A-Za-z]/.test(segment));
}

function isPlainUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!/^(https?|wss?):$/.test(url.protocol) || url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") return false;
  return !url.pathname.split("/").some(isTokenLike) && !url.hostname.split(".").some(isTokenLike);
}

/** Public by shape: nothing a credential looks like, and something masking would break. */
function hasPublicShape(value: string): boolean {
  if (/^\d+$/.test(value)) return false;
  if (isKeyword(value) || IP_ADDRESS.test(value) || DATE_OR_VERSION.test(value)) return true;
  if (HOST_NAME.test(value)) return !value.split(/[.:]/).some(isTokenLike);
  if (ABSOLUTE_OR_RELATIVE_PATH.test(value)) return !value.includes("://");
  return isPlainUrl(value);
}

export type ValueVerdict =
  | { readonly masked: false; readonly why: "too-short" | "public-name" | "public-shape" }
  | { readonly masked: true; readonly why: "secret-name" | "credentials-url" | "any-value" };

/** Whether one configured value is masked, and why (pure; `name` is the env variable or header it is set in). */
export function configuredValueVerdict(name: string, value: string, kind: "env" | "header" = "env"): ValueVerdict {
  if (value.length < MIN_MASKED_LENGTH) return { masked: false, why: "too-short" };
  if (isPublicName(name, kind)) return { masked: false, why: "public-name" };
  if (hasSecretName(name)) return { masked: true, why: "secret-name" };
  if (URL_WITH_CREDENTIALS.test(value)) return { masked: true, why: "credentials-url" };
  if (hasPublicShape(value)) return { masked: false, why: "public-shape" };
  return { masked: true, why: "any-value" };
}

export function isMaskedValue(name: string, value: string, kind: "env" | "header" = "env"): boolean {
  return configuredValueVerdict(name, value, kind).masked;
}

/**
 * Why masking cannot keep a value from guest code that guesses it: masking replaces a value
 * wherever it shows up, so code that can make a candidate show up (a server that echoes its input)
 * sees which candidate was masked. That costs little for a short, digits-only or one-word value.
 * `unmasked` is a value whose name says it is secret but that is too short to be masked at all.
 */
export type Weakness = "unmasked" | "short" | "digits" | "word" | undefined;

export function weakness(name: string, value: string, kind: "env" | "header" = "env"): Weakness {
  const verdict = configuredValueVerdict(name, value, kind);
  if (!verdict.masked) return verdict.why === "too-short" && value.length > 0 && hasSecretName(name) ? "unmasked" : undefined;
  if (/^\d+$/.test(value)) return "digits";
  if (value.length < MIN_UNGUESSABLE_LENGTH) return "short";
  return isKeyword(value) ? "word" : undefined;
}

const TOKEN_LENGTH = 16;

/**
 * Whether a value looks like a credential by name or shape (…_TOKEN, a URL with a password, a
 * long letters-and-digits string). `mcp import` warns about such literals; masking is decided by
 * isMaskedValue, which counts far more values.
 */
export function isLikelySecret(name: string, value: string): boolean {
  if (value.length < MIN_MASKED_LENGTH) return false;
  if (/(key|token|secret|passw|pwd|auth|credential|private|cookie|session|signature|bearer|cert)/i.test(name)) return true;
  if (URL_WITH_CREDENTIALS.test(value)) return true;
  if (/\s/.test(value) || value.length < TOKEN_LENGTH) return false;
  if (/^[./~]/.test(value) || /^[A-Za-z]:\\/.test(value) || /^https?:\/\//i.test(value)) return false;
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** `Bearer <token>` and the like: the credential alone shows up too (echoed by a server, logged). */
const AUTH_SCHEME_VALUE = /^(?:Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key)\s+(\S{8,})$/i;

/** The credentials inside a URL: its password, query values that look secret, token-like path segments. */
function urlCredentials(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const parts: string[] = [];
  if (url.password !== "") parts.push(decodeURIComponent(url.password));
  for (const [key, inner] of url.searchParams) if (inner.length >= MIN_UNGUESSABLE_LENGTH || (hasSecretName(key) && inner.length >= MIN_MASKED_LENGTH)) parts.push(inner);
  for (const segment of url.pathname.split("/")) if (isTokenLike(segment)) parts.push(segment);
  return parts;
}

/** The secret string values of a JSON object held in one value (`OPENAPI_MCP_HEADERS='{"Authorization": "Bearer …"}'`). */
function jsonCredentials(value: string): string[] {
  if (!value.trimStart().startsWith("{")) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  return Object.entries(parsed).flatMap(([key, inner]) => (typeof inner === "string" && isMaskedValue(key, inner, "header") ? maskedParts(inner) : []));
}

/**
 * What the redactor masks for one secret value: the value, and the credentials inside it that can
 * show up alone (echoed by a server, logged): the token of `Bearer <token>`, a URL's password,
 * secret-looking query values and token-like path segments, the secret members of a JSON object.
 * Other values are not split into words: the words of a passphrase or of `--mode list-changed` are
 * ordinary text elsewhere, and masking them would corrupt it.
 */
export function maskedParts(value: string): string[] {
  const credential = AUTH_SCHEME_VALUE.exec(value)?.[1];
  const inner = [...(credential === undefined ? [] : [credential]), ...urlCredentials(value), ...jsonCredentials(value)];
  return [value, ...new Set(inner.filter((part) => part.length >= MIN_MASKED_LENGTH && part !== value))];
}
