import type { Tool } from "@modelcontextprotocol/server";
import type { CallerOptions } from "../mcp/client-manager/index.js";
import { describeHeld, type ServerCatalog } from "../mcp/service/index.js";
import { BUILTIN_TOOL_NAMES } from "./builtin-tools.js";
import type { ToolDirectory } from "./directory.js";
import { assignFlatNames, parseToolRef, refKey, type FlatNameCollision, type ToolRef } from "./flatten.js";
import type { NamedToolset } from "./toolsets/store.js";

/** A toolset tool exposed directly: the upstream definition, renamed, otherwise exactly as listed. */
export interface DirectTool {
  readonly name: string;
  readonly ref: ToolRef;
  readonly definition: Tool;
}

/** A toolset reference that does not resolve to a trusted tool right now. */
export interface MissingTool {
  readonly ref: string;
  readonly reason: string;
}

export interface EquipReport {
  readonly toolset: string;
  readonly description: string | undefined;
  readonly tools: ReadonlyArray<{ readonly name: string; readonly ref: string }>;
  readonly missing: readonly MissingTool[];
  readonly collisions: readonly FlatNameCollision[];
}

/**
 * Resolves `server.tool` references against the servers' catalogs: the tool must be trusted (not
 * held) on an approved server. Every reference that does not resolve is reported with the reason.
 */
export async function resolveToolRefs(
  directory: ToolDirectory,
  refs: readonly string[],
  caller: CallerOptions,
): Promise<{ resolved: Array<{ ref: ToolRef; definition: Tool }>; missing: MissingTool[] }> {
  const missing: MissingTool[] = [];
  const parsed: ToolRef[] = [];
  for (const text of refs) {
    const ref = parseToolRef(text);
    if (ref === undefined) missing.push({ ref: text, reason: 'not a "server.tool" reference' });
    else parsed.push(ref);
  }
  const servers = [...new Set(parsed.map((r) => r.server))];
  const catalogs = new Map<string, ServerCatalog>();
  const problems = new Map<string, string>();
  for (const server of servers) {
    const { catalogs: found, unavailable } = await directory.catalogs(caller, server);
    const catalog = found[0];
    if (catalog !== undefined) catalogs.set(server, catalog);
    else problems.set(server, unavailable[0]?.message ?? `server ${server} is unavailable`);
  }
  const resolved: Array<{ ref: ToolRef; definition: Tool }> = [];
  for (const ref of parsed) {
    const catalog = catalogs.get(ref.server);
    if (catalog === undefined) {
      missing.push({ ref: refKey(ref), reason: problems.get(ref.server) ?? `server ${ref.server} is unavailable` });
      continue;
    }
    const tool = catalog.find(ref.tool);
    if (tool !== undefined) {
      resolved.push({ ref: { server: ref.server, tool: tool.originalName }, definition: tool.definition });
      continue;
    }
    const held = catalog.heldTool(ref.tool);
    missing.push({
      ref: refKey(ref),
      reason: held !== undefined ? describeHeld(ref.server, held) : `server ${ref.server} has no tool "${ref.tool}" (it may have been removed or renamed)`,
    });
  }
  return { resolved, missing };
}

/** The equipped toolset's direct tools, recomputed whenever an upstream listing changes. */
export class Equipment {
  private active: NamedToolset | undefined;
  private tools = new Map<string, DirectTool>();
  private lastReport: EquipReport | undefined;

  get toolset(): NamedToolset | undefined {
    return this.active;
  }

  get report(): EquipReport | undefined {
    return this.lastReport;
  }

  direct(name: string): DirectTool | undefined {
    return this.tools.get(name);
  }

  list(): DirectTool[] {
    return [...this.tools.values()];
  }

  /** Equips (or re-resolves) a toolset; returns whether the exposed tool list changed. */
  async equip(directory: ToolDirectory, toolset: NamedToolset, caller: CallerOptions): Promise<{ report: EquipReport; changed: boolean }> {
    const { resolved, missing } = await resolveToolRefs(directory, toolset.tools, caller);
    const names = assignFlatNames(
      resolved.map((r) => r.ref),
      BUILTIN_TOOL_NAMES,
    );
    const next = new Map<string, DirectTool>();
    for (const { ref, definition } of resolved) {
      const name = names.byRef.get(refKey(ref));
      if (name !== undefined) next.set(name, { name, ref, definition: { ...definition, name } });
    }
    const changed = this.active?.name !== toolset.name || fingerprint(this.tools) !== fingerprint(next);
    this.active = toolset;
    this.tools = next;
    this.lastReport = {
      toolset: toolset.name,
      description: toolset.description,
      tools: [...next.values()].map((t) => ({ name: t.name, ref: refKey(t.ref) })),
      missing,
      collisions: names.collisions,
    };
    return { report: this.lastReport, changed };
  }

  /** Returns whether anything was equipped. */
  unequip(): boolean {
    const had = this.active !== undefined;
    this.active = undefined;
    this.tools = new Map();
    this.lastReport = undefined;
    return had;
  }
}

function fingerprint(tools: ReadonlyMap<string, DirectTool>): string {
  return JSON.stringify([...tools.values()].map((t) => t.definition).sort((a, b) => (a.name < b.name ? -1 : 1)));
}
