import type { CallToolResult } from "@modelcontextprotocol/server";
import type { CallerOptions } from "../mcp/client-manager/index.js";
import type { ToolDirectory } from "./directory.js";
import { resolveToolRefs, type Equipment, type EquipReport } from "./equipment.js";
import { jsonResult } from "./results.js";
import type { ToolsetStore } from "./toolsets/store.js";

export interface ToolsetToolsDeps {
  readonly store: ToolsetStore;
  readonly directory: ToolDirectory;
  readonly equipment: Equipment;
  /** Re-resolves and publishes the equipped toolset; tells clients when the list changed. */
  readonly equip: (name: string, caller: CallerOptions) => Promise<EquipReport>;
  readonly unequip: () => boolean;
}

function reportView(report: EquipReport): Record<string, unknown> {
  return {
    toolset: report.toolset,
    ...(report.description === undefined ? {} : { description: report.description }),
    tools: report.tools,
    missing: report.missing,
    collisions: report.collisions.map((c) => ({ name: c.name, refs: c.refs, assigned: c.assigned })),
  };
}

/** The toolset management tools (build, equip, unequip, list, get-active, delete). */
export class ToolsetTools {
  constructor(private readonly deps: ToolsetToolsDeps) {}

  /** Saves every reference and reports those that do not resolve now (none is dropped silently). */
  async build(args: { name: string; tools: string[]; description?: string | undefined }, caller: CallerOptions): Promise<CallToolResult> {
    const saved = await this.deps.store.save({ name: args.name, tools: args.tools, ...(args.description === undefined ? {} : { description: args.description }) });
    const { resolved, missing } = await resolveToolRefs(this.deps.directory, saved.tools, caller);
    const equipped = this.deps.equipment.toolset?.name === saved.name ? reportView(await this.deps.equip(saved.name, caller)) : undefined;
    return jsonResult({
      saved: { name: saved.name, tools: saved.tools, ...(saved.description === undefined ? {} : { description: saved.description }) },
      resolved: resolved.length,
      missing,
      ...(equipped === undefined ? {} : { equipped }),
    });
  }

  async equip(args: { name: string }, caller: CallerOptions): Promise<CallToolResult> {
    return jsonResult(reportView(await this.deps.equip(args.name, caller)));
  }

  unequip(): CallToolResult {
    const previous = this.deps.equipment.toolset?.name;
    this.deps.unequip();
    return jsonResult({ unequipped: previous ?? null });
  }

  async list(): Promise<CallToolResult> {
    const active = this.deps.equipment.toolset?.name;
    const toolsets = await this.deps.store.list();
    return jsonResult({
      toolsets: toolsets.map((t) => ({ name: t.name, tools: t.tools, ...(t.description === undefined ? {} : { description: t.description }), equipped: t.name === active })),
    });
  }

  getActive(): CallToolResult {
    const report = this.deps.equipment.report;
    return jsonResult(report === undefined ? { toolset: null } : reportView(report));
  }

  async delete(args: { name: string }): Promise<CallToolResult> {
    await this.deps.store.delete(args.name);
    const wasEquipped = this.deps.equipment.toolset?.name === args.name;
    if (wasEquipped) this.deps.unequip();
    return jsonResult({ deleted: args.name, unequipped: wasEquipped });
  }
}
