import { z } from "zod";
import { describeZodIssues, formatJsonPath } from "../../util/zod-issues.js";
import { withKeySuggestions } from "../../util/zod-key-suggestions.js";
import { shellWord } from "../../util/shell-word.js";
import { canonicalJson } from "./canonical.js";
import { McpConfigError, type McpConfigIssue } from "./errors.js";
import { mcpServerEntrySchema, type McpServerEntry } from "./schema.js";

export const MAX_MCP_SERVERS = 20;
export const MAX_SERVER_NAME_LENGTH = 64;
export const SERVER_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/** Module namespaces of the sandbox (`ha:`, `host:`) and the `mcp-<name>` module family. */
export const RESERVED_SERVER_PREFIXES: readonly string[] = ["ha:", "host:", "mcp"];
/** Would shadow Object.prototype members or make the guest's `tools` object a thenable. */
export const RESERVED_SERVER_NAMES: readonly string[] = ["constructor", "prototype", "then"];
/** The native plugins shipped in plugins/; callers pass the list they actually have. */
export const DEFAULT_NATIVE_PLUGIN_NAMES: readonly string[] = ["fs-read", "fs-write", "fetch", "mcp"];

export interface McpConfigContext {
  /** The file named in every message (config.json, or the file being imported). */
  readonly file: string;
  /**
   * JSON path of the servers object inside the file, e.g. ["mcpServers"]. Absent: config.json's own
   * mcpServers, whose broken entries `mcpvm mcp remove <name>` can drop (the message says so).
   */
  readonly pathPrefix?: readonly (string | number)[];
  readonly nativePluginNames: readonly string[];
}

export type McpServers = Record<string, McpServerEntry>;

/** The rules a server name breaks (empty when it is fine). */
export function serverNameProblems(name: string, nativePluginNames: readonly string[]): { rule: string; message: string }[] {
  const problems: { rule: string; message: string }[] = [];
  if (!SERVER_NAME_PATTERN.test(name)) {
    problems.push({ rule: "server-name", message: "server names must match /^[a-z][a-z0-9-]*$/ (a lowercase letter, then lowercase letters, digits or dashes)" });
  }
  if (name.length > MAX_SERVER_NAME_LENGTH) problems.push({ rule: "server-name-length", message: `server names are at most ${MAX_SERVER_NAME_LENGTH} characters` });
  const prefix = RESERVED_SERVER_PREFIXES.find((candidate) => name.startsWith(candidate));
  if (prefix !== undefined) problems.push({ rule: "reserved-prefix", message: `server names cannot start with the reserved prefix "${prefix}"` });
  if (nativePluginNames.includes(name)) problems.push({ rule: "native-plugin-name", message: `"${name}" is the name of a native plugin` });
  if (RESERVED_SERVER_NAMES.includes(name)) problems.push({ rule: "reserved-name", message: `"${name}" is reserved (it would break the guest's tools object)` });
  return problems;
}

interface RawIssue {
  readonly path: readonly PropertyKey[];
  readonly rule: string;
  readonly message: string;
}

function fromZod(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): RawIssue[] {
  return issues.map((issue) => {
    const custom = issue.code === "custom" ? (issue.params as { rule?: unknown } | undefined)?.rule : undefined;
    return { path: [...prefix, ...issue.path], rule: typeof custom === "string" ? custom : issue.code, message: issue.message };
  });
}

// One `${input:id}` is asked for once per session, so every server must mean the same thing by it.
function inputConflicts(servers: McpServers, prefix: readonly PropertyKey[]): RawIssue[] {
  const first = new Map<string, { server: string; text: string }>();
  const issues: RawIssue[] = [];
  for (const [server, entry] of Object.entries(servers)) {
    entry.inputs?.forEach((input, index) => {
      const text = canonicalJson(input);
      const seen = first.get(input.id);
      if (!seen) first.set(input.id, { server, text });
      else if (seen.text !== text) {
        issues.push({ path: [...prefix, server, "inputs", index], rule: "input-conflict", message: `input "${input.id}" is declared differently by server "${seen.server}"; one id has one definition` });
      }
    });
  }
  return issues;
}

/** The entry an issue is in: the key right under the section (none for the section itself). */
function serverOf(issue: RawIssue, prefixLength: number): string | undefined {
  const key = issue.path[prefixLength];
  return typeof key === "string" ? key : undefined;
}

const NAMED_WAYS_OUT = 3;

/** Editing the file is not the only fix: a broken entry of config.json can be dropped from the command line. */
function removeHint(servers: readonly string[]): string {
  if (servers.length === 0) return "";
  const commands = servers.slice(0, NAMED_WAYS_OUT).map((name) => `\`mcpvm mcp remove ${shellWord(name)}\``);
  const more = servers.length > NAMED_WAYS_OUT ? ` (and ${servers.length - NAMED_WAYS_OUT} more)` : "";
  // No closing period: wrappers append their own sentence ("…: <this>. Check its config").
  return `\nFix ${servers.length === 1 ? "it" : "them"} in an editor, or drop a broken entry with ${commands.join(", ")}${more}`;
}

function invalid(context: McpConfigContext, issues: readonly RawIssue[], entryIssues = false): McpConfigError {
  const prefixLength = (context.pathPrefix ?? ["mcpServers"]).length;
  const zodLike = issues.map((issue) => ({ code: "custom" as const, path: [...issue.path], message: `${issue.message} [${issue.rule}]`, input: undefined }));
  const servers = [...new Set(issues.flatMap((issue) => serverOf(issue, prefixLength) ?? []))];
  const hint = entryIssues && context.pathPrefix === undefined ? removeHint(servers) : "";
  return new McpConfigError("MCP_CONFIG_INVALID", `${describeZodIssues(context.file, zodLike)}${hint}`, {
    data: { file: context.file },
    issues: issues.map((issue): McpConfigIssue => {
      const server = serverOf(issue, prefixLength);
      return { path: formatJsonPath(issue.path), rule: issue.rule, message: issue.message, ...(server === undefined ? {} : { server }) };
    }),
  });
}

/**
 * Validate a whole `mcpServers` object (undefined means none). Every problem is collected: bad
 * names, too many servers, each entry's schema and cross-field rules, and input conflicts.
 * Throws McpConfigError MCP_CONFIG_INVALID naming the file, each JSON path and each rule.
 */
export function parseMcpServers(raw: unknown, context: McpConfigContext): McpServers {
  const prefix = context.pathPrefix ?? ["mcpServers"];
  if (raw === undefined) return {};
  const outer = z.record(z.string(), z.unknown()).safeParse(raw);
  if (!outer.success) throw invalid(context, fromZod(outer.error.issues, prefix));

  const names = Object.keys(outer.data);
  const issues: RawIssue[] = [];
  if (names.length > MAX_MCP_SERVERS) {
    issues.push({ path: prefix, rule: "max-servers", message: `at most ${MAX_MCP_SERVERS} servers may be configured, found ${names.length}; remove or merge some` });
  }
  const servers: McpServers = {};
  for (const name of names) {
    const nameProblems = serverNameProblems(name, context.nativePluginNames);
    for (const problem of nameProblems) issues.push({ path: [...prefix, name], ...problem });
    const parsed = mcpServerEntrySchema.safeParse(outer.data[name]);
    if (!parsed.success) issues.push(...fromZod(withKeySuggestions(parsed.error.issues, mcpServerEntrySchema), [...prefix, name]));
    // An invalid name (even "__proto__") is never used as a key.
    else if (nameProblems.length === 0) servers[name] = parsed.data;
  }
  issues.push(...inputConflicts(servers, prefix));
  if (issues.length > 0) throw invalid(context, issues, true);
  return servers;
}

/** Validate one entry under a name (as `add` does before it touches the file). */
export function parseMcpServerEntry(name: string, raw: unknown, context: McpConfigContext): McpServerEntry {
  const prefix = context.pathPrefix ?? ["mcpServers"];
  const issues: RawIssue[] = serverNameProblems(name, context.nativePluginNames).map((problem) => ({ path: [...prefix, name], ...problem }));
  const parsed = mcpServerEntrySchema.safeParse(raw);
  if (!parsed.success) issues.push(...fromZod(withKeySuggestions(parsed.error.issues, mcpServerEntrySchema), [...prefix, name]));
  if (issues.length > 0 || !parsed.success) throw invalid(context, issues);
  return parsed.data;
}

/** The last `mcpServers` section validated by parseMcpServersJson: its key (context and JSON text) and result. */
let lastSection: { readonly key: string; readonly servers: McpServers } | undefined;

/**
 * parseMcpServers for a section read from JSON (config.json): every host open and plugin reload
 * validates the same section again, and its schema (zod, with cross-field rules) is most of the main
 * thread's time that configured servers add to opening a host (about 5 µs a server). JSON text is
 * exact for such a value, so the same text under the same context gives the same servers: the last
 * result is reused, as a copy (callers may change theirs). An invalid section is not kept and throws
 * again, with the same issues.
 */
export function parseMcpServersJson(raw: unknown, context: McpConfigContext): McpServers {
  const key = JSON.stringify([context.file, context.pathPrefix ?? null, context.nativePluginNames, raw === undefined ? 0 : 1, raw ?? null]);
  if (lastSection?.key === key) return structuredClone(lastSection.servers);
  const servers = parseMcpServers(raw, context);
  lastSection = { key, servers: structuredClone(servers) };
  return servers;
}
