import { loadConfigFile, updateConfigFile } from "../../config/config-file.js";
import { didYouMean } from "../../util/suggest.js";
import { McpConfigError, type McpConfigIssue } from "./errors.js";
import { mergeImportedServers, type McpMergeResult } from "./import/merge.js";
import type { McpImportReport } from "./import/parse.js";
import type { McpServerEntry, McpServerEntryInput } from "./schema.js";
import { parseMcpServerEntry, parseMcpServers, type McpServers } from "./validate.js";

/**
 * The `mcpServers` section of config.json. Every change is validated as a whole section inside
 * updateConfigFile's read-modify-write, so a rejected change writes nothing and a file that is
 * already invalid is reported, never rewritten.
 */
export interface McpStoreOptions {
  readonly nativePluginNames: readonly string[];
}

function notFound(file: string, name: string, configured: readonly string[]): McpConfigError {
  return new McpConfigError("MCP_CONFIG_SERVER_NOT_FOUND", `no MCP server "${name}" in ${file}${didYouMean(name, configured) || "."} See the configured names with \`mcpvm mcp list\``, {
    data: { file, name },
  });
}

function sectionOf(raw: unknown): Record<string, unknown> {
  return { ...((raw ?? {}) as Record<string, unknown>) };
}

function pick(servers: McpServers, name: string, file: string): McpServerEntry {
  const entry = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!entry) throw notFound(file, name, Object.keys(servers));
  return entry;
}

/** Rewrite the section inside one read-modify-write; `change` returns the new section and a result. */
async function changeSection<T>(
  file: string,
  options: McpStoreOptions,
  change: (section: Record<string, unknown>) => { readonly section: Record<string, unknown>; readonly result: T },
): Promise<{ servers: McpServers; result: T }> {
  const outcome: { servers: McpServers; result: T }[] = [];
  await updateConfigFile(file, (config) => {
    const { section, result } = change(sectionOf(config.mcpServers));
    outcome.push({ servers: parseMcpServers(section, { file, nativePluginNames: options.nativePluginNames }), result });
    config.mcpServers = section;
  });
  const [done] = outcome;
  // updateConfigFile either ran the mutator or threw, so this only guards the type.
  if (!done) throw new McpConfigError("MCP_CONFIG_INVALID", `${file} was not updated`, { data: { file } });
  return done;
}

export async function listMcpServers(file: string, options: McpStoreOptions): Promise<McpServers> {
  const config = await loadConfigFile(file);
  return parseMcpServers(config.mcpServers, { file, nativePluginNames: options.nativePluginNames });
}

export async function getMcpServer(file: string, name: string, options: McpStoreOptions): Promise<McpServerEntry> {
  return pick(await listMcpServers(file, options), name, file);
}

/** Add (or with `overwrite`, replace) one server; MCP_CONFIG_SERVER_EXISTS if the name is taken. */
export async function addMcpServer(
  file: string,
  name: string,
  entry: McpServerEntryInput,
  options: McpStoreOptions & { readonly overwrite?: boolean },
): Promise<McpServerEntry> {
  const parsed = parseMcpServerEntry(name, entry, { file, nativePluginNames: options.nativePluginNames });
  await changeSection(file, options, (section) => {
    if (Object.hasOwn(section, name) && options.overwrite !== true) {
      throw new McpConfigError("MCP_CONFIG_SERVER_EXISTS", `MCP server "${name}" already exists in ${file}; choose another name, or pass --overwrite to replace it`, { data: { file, name } });
    }
    return { section: { ...section, [name]: parsed }, result: undefined };
  });
  return parsed;
}

/** The issues of a section, none when it validates. */
function sectionIssues(section: Record<string, unknown>, file: string, options: McpStoreOptions): readonly McpConfigIssue[] {
  try {
    parseMcpServers(section, { file, nativePluginNames: options.nativePluginNames });
    return [];
  } catch (error) {
    if (error instanceof McpConfigError && error.issues.length > 0) return error.issues;
    throw error;
  }
}

/**
 * Remove one entry, even when it (or another) does not validate: removing a broken entry is how a
 * person fixes it without an editor. Only that key changes; the rest of the file is written back as
 * it was read. Returns the problems still left in the section (other broken entries), for the caller to say.
 */
export async function removeMcpServer(file: string, name: string, options: McpStoreOptions): Promise<{ readonly stillInvalid: readonly McpConfigIssue[] }> {
  let stillInvalid: readonly McpConfigIssue[] = [];
  await updateConfigFile(file, (config) => {
    const section = sectionOf(config.mcpServers);
    if (!Object.hasOwn(section, name)) throw notFound(file, name, Object.keys(section));
    const rest = Object.fromEntries(Object.entries(section).filter(([key]) => key !== name));
    // Entries are checked one by one, so dropping one only removes problems: what is left is said, not refused.
    stillInvalid = sectionIssues(rest, file, options);
    config.mcpServers = rest;
  });
  return { stillInvalid };
}

export async function setMcpServerEnabled(file: string, name: string, enabled: boolean, options: McpStoreOptions): Promise<McpServerEntry> {
  const { servers } = await changeSection(file, options, (section) => {
    const current = Object.hasOwn(section, name) ? section[name] : undefined;
    if (typeof current !== "object" || current === null) throw notFound(file, name, Object.keys(section));
    return { section: { ...section, [name]: { ...current, enabled } }, result: undefined };
  });
  return pick(servers, name, file);
}

/**
 * Write an import into config.json: added and (with `overwrite`) replaced entries; conflicts and
 * servers over the limit reported, kept out. With `dryRun` the same result is worked out and
 * validated against the current file, and nothing is written. An import with nothing to write
 * leaves the file (or its absence) as it was.
 */
export async function importMcpServers(
  file: string,
  report: McpImportReport,
  options: McpStoreOptions & { readonly overwrite?: boolean; readonly dryRun?: boolean },
): Promise<McpMergeResult> {
  const merge = (section: Record<string, unknown>): McpMergeResult => mergeImportedServers(section, report.servers, { overwrite: options.overwrite === true });
  const planned = merge(sectionOf((await loadConfigFile(file)).mcpServers));
  if (options.dryRun === true || planned.added.length + planned.overwritten.length === 0) {
    parseMcpServers(planned.servers, { file, nativePluginNames: options.nativePluginNames });
    return planned;
  }
  // Planned again inside the lock: another process may have changed config.json meanwhile.
  const { result } = await changeSection(file, options, (section) => {
    const merged = merge(section);
    return { section: { ...merged.servers }, result: merged };
  });
  return result;
}
