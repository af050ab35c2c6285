import { canonicalJson } from "../canonical.js";
import { mcpServerEntrySchema, type McpServerEntry } from "../schema.js";
import { MAX_MCP_SERVERS, type McpServers } from "../validate.js";

export interface McpMergeResult {
  /** The new `mcpServers` section: existing entries as they were, plus added/overwritten ones. */
  readonly servers: Readonly<Record<string, unknown>>;
  readonly added: readonly string[];
  readonly overwritten: readonly string[];
  /** Already present with the same definition: nothing to do. */
  readonly unchanged: readonly string[];
  /** Already present with another definition and not overwritten, or clashing with one: the existing entry stays. */
  readonly conflicts: readonly { readonly name: string; readonly reason: string }[];
  /** New servers that did not fit under the server limit, in file order. */
  readonly leftOut: readonly { readonly name: string; readonly reason: string }[];
  /** The limit and how many servers were configured before, to explain `leftOut`. */
  readonly limit: { readonly maxServers: number; readonly existing: number };
}

export interface McpMergeOptions {
  readonly overwrite: boolean;
  /** The server limit of config.json (MAX_MCP_SERVERS); a parameter so tests can say what they mean. */
  readonly maxServers?: number;
}

function validEntry(value: unknown): McpServerEntry | undefined {
  const parsed = mcpServerEntrySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function sameDefinition(existing: unknown, imported: unknown): boolean {
  const parsed = validEntry(existing);
  return parsed !== undefined && canonicalJson(parsed) === canonicalJson(imported);
}

// One `${input:id}` is asked for once per session, so an id must mean the same thing in every server.
function inputClash(servers: ReadonlyMap<string, unknown>, name: string, entry: McpServerEntry): string | undefined {
  for (const input of entry.inputs ?? []) {
    for (const [other, value] of servers) {
      if (other === name) continue;
      const theirs = validEntry(value)?.inputs?.find((candidate) => candidate.id === input.id);
      if (theirs !== undefined && canonicalJson(theirs) !== canonicalJson(input)) {
        return `input "${input.id}" is declared differently by server "${other}", and one id has one definition; rename the id in one of them (in the imported file, or in config.json)`;
      }
    }
  }
  return undefined;
}

/**
 * Merge imported servers into an existing section without losing anything silently: a name that
 * exists with another definition is a conflict unless `overwrite` is set, and is reported either
 * way. New servers are added in file order while they fit under the server limit; the rest are
 * reported as left out, so an import that is too big still brings what fits.
 */
export function mergeImportedServers(existing: Readonly<Record<string, unknown>>, imported: McpServers, options: McpMergeOptions): McpMergeResult {
  const maxServers = options.maxServers ?? MAX_MCP_SERVERS;
  const servers = new Map(Object.entries(existing));
  const added: string[] = [];
  const overwritten: string[] = [];
  const unchanged: string[] = [];
  const conflicts: { name: string; reason: string }[] = [];
  const tooMany: string[] = [];
  for (const [name, entry] of Object.entries(imported)) {
    if (servers.has(name) && sameDefinition(servers.get(name), entry)) {
      unchanged.push(name);
      continue;
    }
    if (servers.has(name) && !options.overwrite) {
      conflicts.push({ name, reason: `"${name}" already exists with a different definition; it was kept (pass --overwrite to replace it)` });
      continue;
    }
    const clash = inputClash(servers, name, entry);
    if (clash !== undefined) {
      conflicts.push({ name, reason: clash });
      continue;
    }
    if (servers.has(name)) {
      servers.set(name, entry);
      overwritten.push(name);
    } else if (servers.size < maxServers) {
      servers.set(name, entry);
      added.push(name);
    } else {
      tooMany.push(name);
    }
  }
  const count = Object.keys(existing).length;
  const reason = `at most ${maxServers} MCP servers can be configured; config.json had ${count}, so ${added.length} of the ${added.length + tooMany.length} new servers fit`;
  return {
    servers: Object.fromEntries(servers),
    added,
    overwritten,
    unchanged,
    conflicts,
    leftOut: tooMany.map((name) => ({ name, reason })),
    limit: { maxServers, existing: count },
  };
}
