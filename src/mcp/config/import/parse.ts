import { readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { formatJsonPath } from "../../../config/config-file.js";
import { parseJsonDocument } from "../../../util/json-document.js";
import { McpConfigError } from "../errors.js";
import { mcpServerEntrySchema } from "../schema.js";
import type { McpServers } from "../validate.js";
import { editorContextOf } from "./editor-variables.js";
import { normaliseEntry } from "./entries.js";
import { detectImportFormat, unsupportedFormat, type McpImportFormat } from "./formats.js";
import { literalSecretsIn, type LiteralSecret } from "./literal-secrets.js";
import { ownGatewayNote } from "./own-gateway.js";
import { assignServerNames, type ServerRename } from "./server-names.js";
import { isUnder, unsafeKeysInText, type UnsafeKey } from "./unsafe-keys.js";

export interface McpImportReport {
  readonly file: string;
  readonly format: McpImportFormat;
  /** Importable servers under their mcpvm names, validated, in file order. */
  readonly servers: McpServers;
  /** Every name that changed, with why (only for imported servers). */
  readonly renames: readonly ServerRename[];
  /** Servers that could not be imported, by their name in the file, with why. */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** Parts of imported servers (or of the file) that were dropped or rewritten, by mcpvm name ("" for the file). */
  readonly warnings: readonly { readonly name: string; readonly message: string }[];
  /** Literal secrets and placeholders copied into imported servers, with the `${VAR}` form to use. */
  readonly secrets: readonly LiteralSecret[];
  /** Servers in the file that `only` did not select, by their name in the file. */
  readonly notSelected: readonly string[];
  /** Names given in `only` that match no server of the file. */
  readonly unmatchedOnly: readonly string[];
  /** Every name a server of the file can be selected by (its name in the file and its mcpvm name). */
  readonly selectableNames: readonly string[];
}

export interface McpImportOptions {
  readonly nativePluginNames: readonly string[];
  /** Import only these servers, by their name in the file or their mcpvm name. */
  readonly only?: readonly string[];
}

function inputMap(inputs: readonly unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const input of inputs) {
    if (typeof input === "object" && input !== null && typeof (input as { id?: unknown }).id === "string") map.set((input as { id: string }).id, input);
  }
  return map;
}

const TOML_TABLE = /^\s*\[\[?[A-Za-z0-9_."-]+\]\]?\s*$/m;

// Only asked once the text failed as JSON: a file that parses is never refused for its name.
function unsupportedSyntax(file: string, text: string): McpConfigError | undefined {
  const extension = extname(file).toLowerCase();
  if (extension === ".toml" || TOML_TABLE.test(text)) {
    return unsupportedFormat(file, /^\s*\[mcp_servers\./m.test(text) ? "a Codex config.toml (TOML, [mcp_servers.…] tables)" : "a TOML file");
  }
  if (extension === ".yaml" || extension === ".yml") return unsupportedFormat(file, "a YAML file (Continue, Goose and others)");
  return undefined;
}

function parseText(file: string, text: string): unknown {
  try {
    return parseJsonDocument(text, { comments: true });
  } catch (cause) {
    const unsupported = unsupportedSyntax(file, text);
    if (unsupported !== undefined) throw unsupported;
    throw new McpConfigError("MCP_IMPORT_INVALID_JSON", `${file} is not valid JSON: ${(cause as Error).message}`, { data: { file }, cause });
  }
}

const UNSAFE_SERVER_NAME = (key: string): string =>
  `"${key}" cannot be a server name: mcpvm never reads the keys __proto__, constructor and prototype from a file (they can change JavaScript objects); rename the server in the file and import it again`;

function unsafeFieldWarning(key: UnsafeKey, prefix: readonly string[]): string {
  const within = key.parent.slice(prefix.length + 1);
  return `${formatJsonPath([...within, key.key])} was not imported: mcpvm never reads keys named __proto__, constructor or prototype; rename it in the file`;
}

function schemaProblems(prefix: readonly string[], original: string, issues: readonly { path: readonly PropertyKey[]; code: string; message: string; params?: unknown }[]): string {
  return issues
    .map((issue) => {
      const rule = issue.code === "custom" ? String((issue.params as { rule?: unknown } | undefined)?.rule ?? issue.code) : issue.code;
      return `${formatJsonPath([...prefix, original, ...issue.path])}: ${issue.message} [${rule}]`;
    })
    .join("; ");
}

// opencode switches tools off file-wide by pattern (`"tools": { "github_*": false }`); mcpvm's filters are per server and exact.
function toolSwitchWarnings(format: McpImportFormat, raw: unknown): { name: string; message: string }[] {
  if (format !== "command-array" || typeof raw !== "object" || raw === null) return [];
  const tools = (raw as { tools?: unknown }).tools;
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) return [];
  const off = Object.entries(tools).filter(([, on]) => on === false).map(([pattern]) => pattern);
  if (off.length === 0) return [];
  return [{ name: "", message: `the "tools" section switches off ${off.join(", ")}; it was not imported, so add those tools to each server's "denyTools" (exact names)` }];
}

/** Read another tool's MCP config (JSON or JSONC) and turn it into mcpvm entries plus a report. */
export function parseImportText(file: string, text: string, options: McpImportOptions): McpImportReport {
  const raw = parseText(file, text);
  const detected = detectImportFormat(file, raw);
  const prefix = detected.pathPrefix;
  const definitions = inputMap(detected.inputs);
  const editor = editorContextOf(file);
  const originals = Object.keys(detected.servers);
  const { names, renames } = assignServerNames(originals, options.nativePluginNames);

  // Keys the JSON parser never creates: server names among them are reported, never lost.
  const unsafe = unsafeKeysInText(text).filter((key) => isUnder(key.parent, prefix));
  const unsafeServers = unsafe.filter((key) => key.parent.length === prefix.length).map((key) => key.key);
  const unsafeFields = unsafe.filter((key) => key.parent.length > prefix.length);

  const selectableNames = [...new Set([...originals.flatMap((original) => [original, names.get(original) ?? original]), ...unsafeServers])];
  const only = options.only === undefined ? undefined : new Set(options.only);
  const selected = (original: string): boolean => only === undefined || only.has(original) || only.has(names.get(original) ?? original);
  const unmatchedOnly = [...(only ?? [])].filter((name) => !selectableNames.includes(name));

  const servers: McpServers = {};
  const imported = new Set<string>();
  const skipped: { name: string; reason: string }[] = unsafeServers.filter(selected).map((key) => ({ name: key, reason: UNSAFE_SERVER_NAME(key) }));
  const secrets: LiteralSecret[] = [];
  const warnings: { name: string; message: string }[] = detected.ignoredSections.map((section) => ({
    name: "",
    message: `the "${section}" section was not imported (only "${prefix.join(".")}" was); import it from a file of its own`,
  }));
  warnings.push(...toolSwitchWarnings(detected.format, raw));
  for (const [original, value] of Object.entries(detected.servers)) {
    if (!selected(original)) continue;
    const name = names.get(original) ?? original;
    const normalised = normaliseEntry(value, detected.format, definitions, editor);
    if (!normalised.ok) {
      skipped.push({ name: original, reason: normalised.reason });
      continue;
    }
    const parsed = mcpServerEntrySchema.safeParse(normalised.candidate);
    if (!parsed.success) {
      skipped.push({ name: original, reason: schemaProblems(prefix, original, parsed.error.issues) });
      continue;
    }
    servers[name] = parsed.data;
    imported.add(original);
    warnings.push(...normalised.warnings.map((message) => ({ name, message })));
    const own = ownGatewayNote(name, parsed.data);
    if (own !== undefined) warnings.push({ name, message: own });
    warnings.push(...unsafeFields.filter((key) => key.parent[prefix.length] === original).map((key) => ({ name, message: unsafeFieldWarning(key, prefix) })));
    secrets.push(...literalSecretsIn(name, parsed.data));
  }
  return {
    file,
    format: detected.format,
    servers,
    renames: renames.filter((rename) => imported.has(rename.from)),
    skipped,
    warnings,
    secrets,
    notSelected: [...originals, ...unsafeServers].filter((original) => !selected(original)),
    unmatchedOnly,
    selectableNames,
  };
}

// Where the MCP config usually is, for a directory given instead of a file.
const CONFIG_FILES_IN_A_FOLDER = [".vscode/mcp.json", ".cursor/mcp.json", ".mcp.json", "mcp.json", "claude_desktop_config.json", "mcp_config.json", "opencode.json"];

async function existing(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const candidate of CONFIG_FILES_IN_A_FOLDER) {
    const info = await stat(join(folder, candidate)).catch(() => undefined);
    if (info?.isFile() === true) found.push(join(folder, candidate));
  }
  return found;
}

/** A folder where a file was meant: the client config files it holds, if any, are what to import. */
async function folderHint(folder: string): Promise<string> {
  const found = await existing(folder);
  return found.length > 0 ? `it is a folder: import one of ${found.join(", ")}` : "it is a folder: pass the MCP config file inside it (e.g. .vscode/mcp.json)";
}

const WHAT_TO_IMPORT = "Give the path of an MCP client's config file (e.g. .vscode/mcp.json, ~/.cursor/mcp.json, .mcp.json); `mcpvm mcp import --help` lists the formats.";

/** Far above any client's MCP config; a bigger file is a wrong path. */
const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

export async function readImportFile(file: string, options: McpImportOptions): Promise<McpImportReport> {
  let text: string;
  try {
    // A FIFO, a device or /dev/stdin would be read forever (holding one of libuv's few file threads): refuse them first.
    const info = await stat(file);
    if (info.isDirectory()) throw new McpConfigError("MCP_IMPORT_UNREADABLE", `cannot read ${file}: ${await folderHint(file)}`, { data: { file } });
    if (!info.isFile()) throw new McpConfigError("MCP_IMPORT_UNREADABLE", `cannot read ${file}: it is a pipe or device, not a regular file. Save the config to a file and import that file.`, { data: { file } });
    if (info.size > MAX_IMPORT_BYTES) throw new McpConfigError("MCP_IMPORT_UNREADABLE", `cannot read ${file}: it is ${info.size} bytes, too large for an MCP config file`, { data: { file } });
    text = await readFile(file, "utf8");
  } catch (cause) {
    if (cause instanceof McpConfigError) throw cause;
    const errno = (cause as NodeJS.ErrnoException).code;
    // A wrong path is the usual first mistake: said in words, with what to give instead; Node's own text
    // ("EACCES: permission denied, open …") only for what has no sentence of its own.
    const reason =
      errno === "ENOENT" || errno === "ENOTDIR"
        ? `no such file. ${WHAT_TO_IMPORT}`
        : errno === "EACCES" || errno === "EPERM"
          ? "permission denied: this user may not read it (check with `ls -l`, or import a copy you can read)"
          : errno === "EISDIR"
            ? await folderHint(file)
            : (cause as Error).message;
    throw new McpConfigError("MCP_IMPORT_UNREADABLE", `cannot read ${file}: ${reason}`, { data: { file }, cause });
  }
  return parseImportText(file, text, options);
}
