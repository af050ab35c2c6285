import { canonicalJson } from "../canonical.js";
import { mcpServerEntrySchema } from "../schema.js";
import type { McpServers } from "../validate.js";

export interface McpMergeResult {
  /** The new `mcpServers` section: existing entries as they were, plus added/overwritten ones. */
  readonly servers: Readonly<Record<string, unknown>>;
  readonly added: readonly string[];
  readonly overwritten: readonly string[];
  /** Already present with the same definition: nothing to do. */
  readonly unchanged: readonly string[];
  /** Already present with another definition and not overwritten: the existing entry stays. */
  readonly conflicts: readonly { readonly name: string; readonly reason: string }[];
}

function sameDefinition(existing: unknown, imported: unknown): boolean {
  const parsed = mcpServerEntrySchema.safeParse(existing);
  return parsed.success && canonicalJson(parsed.data) === canonicalJson(imported);
}

/**
 * Merge imported servers into an existing section without losing anything silently: a name that
 * exists with another definition is a conflict unless `overwrite` is set, and is reported either way.
 */
export function mergeImportedServers(existing: Readonly<Record<string, unknown>>, imported: McpServers, options: { readonly overwrite: boolean }): McpMergeResult {
  const servers = new Map(Object.entries(existing));
  const added: string[] = [];
  const overwritten: string[] = [];
  const unchanged: string[] = [];
  const conflicts: { name: string; reason: string }[] = [];
  for (const [name, entry] of Object.entries(imported)) {
    if (!servers.has(name)) {
      servers.set(name, entry);
      added.push(name);
    } else if (sameDefinition(servers.get(name), entry)) {
      unchanged.push(name);
    } else if (options.overwrite) {
      servers.set(name, entry);
      overwritten.push(name);
    } else {
      conflicts.push({ name, reason: `"${name}" already exists with a different definition; it was kept (use the overwrite option to replace it)` });
    }
  }
  return { servers: Object.fromEntries(servers), added, overwritten, unchanged, conflicts };
}
