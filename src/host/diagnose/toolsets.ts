import { ToolsetStore, type NamedToolset } from "../../gateway/toolsets/store.js";
import { shellWord } from "../../util/shell-word.js";
import { problem, type Problem } from "./problem.js";

/** A saved toolset with tool references to servers config.json no longer has. */
export interface StaleToolset {
  readonly name: string;
  /** The references whose server is gone, in the toolset's order. */
  readonly missing: readonly string[];
  /** The servers they name. */
  readonly servers: readonly string[];
  /** The references still pointing at configured servers. */
  readonly kept: readonly string[];
  readonly description: string | undefined;
}

/** `server.tool`: the server is everything before the first dot (server names have none). */
const serverOf = (ref: string): string => ref.slice(0, Math.max(0, ref.indexOf(".")));

/**
 * Toolsets naming a server that is not configured (any entry under mcpServers counts, valid or not:
 * a broken entry is still the person's server). Optionally only those naming `server`.
 */
export function staleToolsets(toolsets: readonly NamedToolset[], configured: ReadonlySet<string>, server?: string): StaleToolset[] {
  return toolsets.flatMap((toolset) => {
    const missing = toolset.tools.filter((ref) => !configured.has(serverOf(ref)) && (server === undefined || serverOf(ref) === server));
    if (missing.length === 0) return [];
    const servers = [...new Set(missing.map(serverOf))];
    return [{ name: toolset.name, missing, servers, kept: toolset.tools.filter((ref) => configured.has(serverOf(ref))), description: toolset.description }];
  });
}

/**
 * What fixes one: build it again with the tools that still resolve (its description kept: build
 * replaces the whole toolset), or delete it when none is left.
 */
export function staleToolsetFix(stale: StaleToolset): string {
  if (stale.kept.length === 0) return `mcpvm toolset delete ${shellWord(stale.name)}`;
  const description = stale.description === undefined ? "" : ` --description ${shellWord(stale.description)}`;
  return `mcpvm toolset build ${shellWord(stale.name)} ${stale.kept.map(shellWord).join(" ")}${description}`;
}

/**
 * A warning per stale toolset: `serve --toolset` and equip-toolset still equip it, without the tools
 * of the servers that are gone (the gateway logs each), so nothing fails, but the client gets less
 * than the toolset says. An unreadable toolsets.json is reported by checkStateFiles.
 */
export async function checkToolsets(file: string, configured: readonly string[]): Promise<Problem[]> {
  let toolsets: NamedToolset[];
  try {
    toolsets = await new ToolsetStore(file).list();
  } catch {
    return [];
  }
  return staleToolsets(toolsets, new Set(configured)).map((stale) => {
    const names = stale.servers.join(", ");
    const which = stale.servers.length === 1 ? "which is" : "which are";
    const effect = stale.kept.length === 0 ? "equipped, it has no tools at all" : `the gateway equips it without ${stale.missing.length === 1 ? "that tool" : "those tools"}`;
    return problem(
      "warning",
      "config",
      `toolset ${stale.name}`,
      `toolset "${stale.name}" names ${names}, ${which} no longer configured (${stale.missing.join(", ")}); ${effect}`,
      `${staleToolsetFix(stale)}   (mcpvm toolset show ${shellWord(stale.name)} --check shows what resolves)`,
    );
  });
}
