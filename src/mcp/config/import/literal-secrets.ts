import { parseTemplate } from "../placeholders.js";
import type { McpServerEntry } from "../schema.js";
import { isLikelySecret } from "../secret-values.js";

/**
 * Secrets typed into another client's file (`"BRAVE_API_KEY": "BSA…"`) and the placeholders its
 * README told people to replace (`<YOUR_TOKEN>`, `YOUR_API_KEY_HERE`, `xxxx`) are copied as they
 * are, because the entry would not work otherwise. Each one is reported with the `${VAR}` form that
 * keeps the value out of config.json. The value itself is never repeated unless it is a placeholder.
 */
export interface LiteralSecret {
  /** The server's mcpvm name. */
  readonly name: string;
  /** Where in the entry: `env.BRAVE_API_KEY`, `headers.Authorization`, `url`. */
  readonly field: string;
  readonly kind: "secret" | "placeholder";
  readonly message: string;
}

const PLACEHOLDERS: readonly RegExp[] = [
  /<[^<>]*[A-Za-z][^<>]*>/, // <YOUR_TOKEN>, Bearer <token>
  /(^|[^a-z])your[\s_-]/i, // YOUR_API_KEY_HERE, your-api-key
  /[\s_-]here$/i, // api_key_here
  /(^|[^a-z])(insert|paste|replace|enter)[\s_-]/i, // INSERT_KEY, replace-with-token
  /x{4,}|(^|[^a-z])x{3}($|[^a-z])/i, // xxxx, sk-xxx, ghp_xxxxxxxx
  /(\.\.\.|…)$/, // sk-…, BSA...
  /^\*+$/, // ****
  /^(changeme|change[-_]me|replaceme|replace[-_]me|todo|tbd|placeholder|secret|token|password|api[-_]?key)$/i,
];

// Header schemes kept in front of the reference: "Bearer ${GITHUB_TOKEN}".
const SCHEME = /^(Bearer|Basic|Token|Bot)\s+/i;

function isLiteral(value: string): boolean {
  const parsed = parseTemplate(value);
  return parsed.ok && parsed.parts.every((part) => part.kind === "text");
}

function isPlaceholder(value: string): boolean {
  return PLACEHOLDERS.some((pattern) => pattern.test(value));
}

// A credential inside a longer value: "Bearer …" anywhere, or a JSON object of headers
// (Notion's server reads `OPENAPI_MCP_HEADERS='{"Authorization": "Bearer ntn_…"}'`).
const EMBEDDED_BEARER = /\b(Bearer|Basic)\s+[^\s"'$]{8,}/;

function embedsCredential(value: string): boolean {
  if (EMBEDDED_BEARER.test(value)) return true;
  if (!value.trimStart().startsWith("{")) return false;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null) return false;
    return Object.entries(parsed).some(([key, inner]) => typeof inner === "string" && looksLikeCredential(key, inner));
  } catch {
    return false;
  }
}

// isLikelySecret masks by name alone ("AUTH_MODE": "oauth"); a warning should only come for a value that could be a credential.
function looksLikeCredential(name: string, value: string): boolean {
  if (embedsCredential(value)) return true;
  if (value.length < 8 || /\s/.test(value) || /^(true|false|\d+)$/i.test(value)) return false;
  if (/^[./~]/.test(value) || /^[A-Za-z]:\\/.test(value)) return false;
  return isLikelySecret(name, value);
}

function variableName(text: string): string {
  const name = text
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
}

interface Candidate {
  readonly field: string;
  /** The name that says whether the value is a secret (env or header name, query parameter). */
  readonly key: string;
  /** The value without any header scheme. */
  readonly value: string;
  /** How the value is written in the file, shown only when it is a placeholder. */
  readonly written: string;
  /** The reference form to use instead, e.g. `"BRAVE_API_KEY": "${BRAVE_API_KEY}"`. */
  readonly suggestion: string;
  readonly variable: string;
}

function finding(server: string, candidate: Candidate): LiteralSecret | undefined {
  const { field, key, value, written, suggestion, variable } = candidate;
  const setIt = variable === key ? "set it in your environment" : `set ${variable} in your environment`;
  if (isPlaceholder(value)) {
    return { name: server, field, kind: "placeholder", message: `${field}: ${shown(written)} is a placeholder, not a value; write ${suggestion} and ${setIt}` };
  }
  if (looksLikeCredential(key, value)) {
    return { name: server, field, kind: "secret", message: `${field}: literal secret copied into config.json; prefer ${suggestion} and ${setIt}` };
  }
  return undefined;
}

function urlFindings(server: string, url: string): LiteralSecret[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: LiteralSecret[] = [];
  if (parsed.password !== "") {
    const variable = `${variableName(server)}_PASSWORD`;
    const suggestion = `"${parsed.protocol}//${parsed.username}:\${${variable}}@${parsed.host}${parsed.pathname}"`;
    found.push({ name: server, field: "url", kind: "secret", message: `url: a literal password is copied into config.json; prefer ${suggestion} and set ${variable} in your environment` });
  }
  for (const [key, value] of parsed.searchParams) {
    const variable = variableName(key);
    const item = finding(server, { field: `url (?${key}=)`, key, value, written: value, suggestion: `"…?${key}=\${${variable}}"`, variable });
    if (item !== undefined) found.push(item);
  }
  return found;
}

/** Every literal secret and placeholder in one imported entry's env, headers and url. */
export function literalSecretsIn(server: string, entry: McpServerEntry): LiteralSecret[] {
  const found: LiteralSecret[] = [];
  for (const [key, value] of Object.entries(entry.env ?? {})) {
    if (!isLiteral(value)) continue;
    const variable = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : variableName(key);
    const item = finding(server, { field: `env.${key}`, key, value, written: value, suggestion: `"${key}": "\${${variable}}"`, variable });
    if (item !== undefined) found.push(item);
  }
  for (const [key, value] of Object.entries(entry.headers ?? {})) {
    if (!isLiteral(value)) continue;
    const scheme = SCHEME.exec(value)?.[0] ?? "";
    const variable = key.toLowerCase() === "authorization" ? `${variableName(server)}_TOKEN` : variableName(key);
    const item = finding(server, { field: `headers.${key}`, key, value: value.slice(scheme.length), written: value, suggestion: `"${key}": "${scheme}\${${variable}}"`, variable });
    if (item !== undefined) found.push(item);
  }
  if (entry.url !== undefined && isLiteral(entry.url)) found.push(...urlFindings(server, entry.url));
  return found;
}
