import { mcpInputSchema, type McpInputDefinition } from "../schema.js";
import { inputReferences } from "../placeholders.js";
import { templateFields, type TemplateSource } from "../template-fields.js";
import { editorVariableWarnings, resolveEditorVariables, type EditorContext } from "./editor-variables.js";
import type { McpImportFormat } from "./formats.js";
import { ALLOW_FIELDS, DENY_FIELDS, toolListsOf } from "./tool-lists.js";
import { anchorRelativePaths } from "./working-folder.js";

/** One foreign entry rewritten in mcpvm's shape, ready for schema validation, or why it cannot be. */
export type NormalisedEntry =
  | { readonly ok: true; readonly candidate: Record<string, unknown>; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly reason: string };

const TRANSPORTS: Readonly<Record<string, "stdio" | "http" | "sse">> = {
  stdio: "stdio",
  local: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  remote: "http",
  sse: "sse",
};

// Fields that mean the same in mcpvm's schema and are copied as they are.
const SAME_FIELDS = ["cwd", "headers", "oauth", "enabled", "description", "connectTimeoutMs", "callTimeoutMs", "maxResponseBytes"];
// Fields handled explicitly below (tool lists in tool-lists.ts).
const MAPPED_FIELDS = ["type", "transportType", "command", "args", "env", "environment", "url", "serverUrl", "httpUrl", "disabled", "inputs", "timeout", ...ALLOW_FIELDS, ...DENY_FIELDS];

const IGNORED_BECAUSE: Readonly<Record<string, string>> = {
  envFile: '"envFile" is not supported: copy the variables it sets into "env" (as ${VAR} references)',
  alwaysAllow: '"alwaysAllow" (auto-approval) is not imported: mcpvm asks according to "confirm"',
  autoApprove: '"autoApprove" is not imported: mcpvm asks according to "confirm"',
  confirm: '"confirm" is not imported: how often mcpvm asks before a call is yours to set (`mcpvm mcp approve` shows it)',
  trust: '"trust" is not imported: mcpvm asks according to "confirm"',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function transportOf(raw: Record<string, unknown>): { ok: true; type: string | undefined } | { ok: false; reason: string } {
  const given = raw.type ?? raw.transportType;
  // Gemini CLI: `httpUrl` is a streamable HTTP endpoint (its `url` is SSE, which inference from the path mostly gets right).
  if (given === undefined) return { ok: true, type: raw.httpUrl !== undefined && raw.url === undefined ? "http" : undefined };
  const mapped = typeof given === "string" ? TRANSPORTS[given] : undefined;
  if (mapped === undefined) return { ok: false, reason: `transport type ${JSON.stringify(given)} is not one of stdio, local, http, streamable-http, remote, sse` };
  return { ok: true, type: mapped };
}

function commandOf(raw: Record<string, unknown>): { ok: true; command: unknown; args: unknown } | { ok: false; reason: string } {
  if (!Array.isArray(raw.command)) return { ok: true, command: raw.command, args: raw.args };
  const [command, ...rest] = raw.command as unknown[];
  if (command === undefined) return { ok: false, reason: '"command" is an empty array' };
  const extra = Array.isArray(raw.args) ? (raw.args as unknown[]) : raw.args === undefined ? [] : undefined;
  if (extra === undefined) return { ok: false, reason: '"args" must be an array when "command" is an array' };
  return { ok: true, command, args: [...rest, ...extra] };
}

function envOf(raw: Record<string, unknown>): unknown {
  if (raw.environment === undefined) return raw.env;
  if (raw.env === undefined) return raw.environment;
  return isRecord(raw.env) && isRecord(raw.environment) ? { ...raw.environment, ...raw.env } : raw.env;
}

function inputsFor(candidate: TemplateSource, definitions: ReadonlyMap<string, unknown>): { ok: true; inputs: McpInputDefinition[] } | { ok: false; reason: string } {
  const ids = [...new Set(templateFields(candidate).flatMap((field) => inputReferences(field.value)))];
  const inputs: McpInputDefinition[] = [];
  for (const id of ids) {
    const definition = definitions.get(id);
    if (definition === undefined) return { ok: false, reason: `uses \${input:${id}} but the file declares no input "${id}"` };
    const parsed = mcpInputSchema.safeParse(definition);
    if (!parsed.success) {
      const type = isRecord(definition) ? definition.type : undefined;
      return type === "command"
        ? { ok: false, reason: `input "${id}" is a VS Code command input, which mcpvm cannot run` }
        : { ok: false, reason: `input "${id}" is not a promptString or pickString input mcpvm understands` };
    }
    inputs.push(parsed.data);
  }
  return { ok: true, inputs };
}

// The candidate is not validated yet: only its string values can hold placeholders.
function templateSource(candidate: Record<string, unknown>): TemplateSource {
  const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
  const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined);
  const record = (value: unknown): Record<string, string> | undefined =>
    isRecord(value) ? Object.fromEntries(Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === "string")) : undefined;
  return {
    command: text(candidate.command),
    args: strings(candidate.args),
    env: record(candidate.env),
    cwd: text(candidate.cwd),
    url: text(candidate.url),
    headers: record(candidate.headers),
  };
}

// Definitions from the file's `inputs`, overridden by an entry's own (mcpvm's config.json keeps them per server).
function definitionsFor(raw: Record<string, unknown>, fileInputs: ReadonlyMap<string, unknown>): ReadonlyMap<string, unknown> {
  if (!Array.isArray(raw.inputs)) return fileInputs;
  const merged = new Map(fileInputs);
  for (const input of raw.inputs as unknown[]) if (isRecord(input) && typeof input.id === "string") merged.set(input.id, input);
  return merged;
}

// The command-array format writes environment references as {env:NAME} and file contents as {file:path}.
const BRACE_ENV = /(?<!\$)\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const BRACE_FILE = /(?<!\$)\{file:[^}]*\}/;

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  return value;
}

function convertBraceReferences(candidate: Record<string, unknown>): { ok: true } | { ok: false; reason: string } {
  for (const key of ["command", "args", "env", "cwd", "url", "headers"]) {
    let fileReference = false;
    candidate[key] = mapStrings(candidate[key], (text) => {
      if (BRACE_FILE.test(text)) fileReference = true;
      return text.replace(BRACE_ENV, (_match, name: string) => `\${${name}}`);
    });
    if (candidate[key] === undefined) delete candidate[key];
    if (fileReference) return { ok: false, reason: `"${key}" uses a {file:…} reference, which mcpvm does not read; put the value in an environment variable and use \${VAR}` };
  }
  return { ok: true };
}

/** Rewrite one entry of any supported format into mcpvm's shape. */
export function normaliseEntry(raw: unknown, format: McpImportFormat, inputDefinitions: ReadonlyMap<string, unknown>, editor: EditorContext = {}): NormalisedEntry {
  if (!isRecord(raw)) return { ok: false, reason: "the entry is not an object" };
  const transport = transportOf(raw);
  if (!transport.ok) return transport;
  const command = commandOf(raw);
  if (!command.ok) return command;
  const tools = toolListsOf(raw);
  if (!tools.ok) return tools;

  const candidate: Record<string, unknown> = {};
  const warnings: string[] = [];
  const set = (key: string, value: unknown): void => {
    if (value !== undefined) candidate[key] = value;
  };
  set("type", transport.type);
  set("command", command.command);
  set("args", command.args);
  set("env", envOf(raw));
  set("url", raw.url ?? raw.serverUrl ?? raw.httpUrl);
  for (const key of SAME_FIELDS) if (key !== "oauth") set(key, raw[key]);
  // Claude Code's {"clientId", "callbackPort", …} is mcpvm's shape; opencode's true/false switch is not needed.
  if (isRecord(raw.oauth)) set("oauth", raw.oauth);
  else if (typeof raw.oauth === "boolean") warnings.push(`"oauth": ${raw.oauth} is not imported: mcpvm logs in only when a server asks for it (\`mcpvm mcp login <name>\`), and never for a server with its own Authorization header`);
  set("allowTools", tools.allowTools);
  set("denyTools", tools.denyTools);
  warnings.push(...tools.warnings);
  if (raw.enabled === undefined && typeof raw.disabled === "boolean") set("enabled", !raw.disabled);
  if (raw.timeout !== undefined) {
    // Only the command-array format defines `timeout` (ms to connect and list tools); elsewhere it means other things.
    if (format === "command-array") set("connectTimeoutMs", raw.connectTimeoutMs ?? raw.timeout);
    else warnings.push('"timeout" is not imported: set connectTimeoutMs or callTimeoutMs (milliseconds)');
  }
  for (const key of Object.keys(raw)) {
    if (SAME_FIELDS.includes(key) || MAPPED_FIELDS.includes(key)) continue;
    warnings.push(IGNORED_BECAUSE[key] ?? `"${key}" is not supported and was not imported`);
  }

  if (format === "command-array") {
    const converted = convertBraceReferences(candidate);
    if (!converted.ok) return converted;
  }
  warnings.push(...resolveEditorVariables(candidate, editor));
  warnings.push(...anchorRelativePaths(candidate, editor.projectFolder));
  const source = templateSource(candidate);
  const inputs = inputsFor(source, definitionsFor(raw, inputDefinitions));
  if (!inputs.ok) return inputs;
  if (inputs.inputs.length > 0) candidate.inputs = inputs.inputs;
  warnings.push(...editorVariableWarnings(source));
  return { ok: true, candidate, warnings };
}
