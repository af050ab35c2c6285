import type { McpTransportKind } from "../types.js";

/** The entry fields that may hold `${…}` placeholders, with their JSON path inside the entry. */
export interface TemplateField {
  readonly path: readonly (string | number)[];
  readonly value: string;
}

export interface TemplateSource {
  readonly command?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
  readonly url?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly oauth?: { readonly clientId?: string | undefined; readonly clientSecret?: string | undefined; readonly privateKey?: string | undefined; readonly privateKeyFile?: string | undefined } | undefined;
}

export function templateFields(entry: TemplateSource): TemplateField[] {
  const fields: TemplateField[] = [];
  if (entry.command !== undefined) fields.push({ path: ["command"], value: entry.command });
  entry.args?.forEach((value, index) => fields.push({ path: ["args", index], value }));
  for (const [key, value] of Object.entries(entry.env ?? {})) fields.push({ path: ["env", key], value });
  if (entry.cwd !== undefined) fields.push({ path: ["cwd"], value: entry.cwd });
  if (entry.url !== undefined) fields.push({ path: ["url"], value: entry.url });
  for (const [key, value] of Object.entries(entry.headers ?? {})) fields.push({ path: ["headers", key], value });
  if (entry.oauth?.clientId !== undefined) fields.push({ path: ["oauth", "clientId"], value: entry.oauth.clientId });
  if (entry.oauth?.clientSecret !== undefined) fields.push({ path: ["oauth", "clientSecret"], value: entry.oauth.clientSecret });
  if (entry.oauth?.privateKey !== undefined) fields.push({ path: ["oauth", "privateKey"], value: entry.oauth.privateKey });
  if (entry.oauth?.privateKeyFile !== undefined) fields.push({ path: ["oauth", "privateKeyFile"], value: entry.oauth.privateKeyFile });
  return fields;
}

// Servers that only speak legacy SSE conventionally serve it at …/sse.
const SSE_PATH = /\/sse\/?(?:[?#].*)?$/;

/**
 * The transport of an entry that may omit `type` (Claude Desktop, Cursor and Claude Code files
 * do): a command means stdio, a url means streamable HTTP unless its path ends in /sse.
 */
export function inferTransport(entry: { readonly type?: McpTransportKind | undefined; readonly command?: unknown; readonly url?: unknown }): McpTransportKind | undefined {
  if (entry.type !== undefined) return entry.type;
  if (entry.command !== undefined) return "stdio";
  if (typeof entry.url === "string") return SSE_PATH.test(entry.url) ? "sse" : "http";
  return undefined;
}
