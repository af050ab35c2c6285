import { z } from "zod";
import { BUILTIN_TOOL_NAMES } from "../../gateway/builtin-tools.js";
import { assignFlatNames, parseToolRef, refKey, type ToolRef } from "../../gateway/flatten.js";
import { ToolsetStore, type NamedToolset } from "../../gateway/toolsets/store.js";
import { UiError } from "../errors.js";
import type { HostState } from "../host-state.js";
import { parseBody } from "./body.js";
import type { Router } from "./router.js";

const saveSchema = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    tools: z.array(z.string()),
    /**
     * The version the page's form started from: the `updatedAt` of the toolset it showed under that
     * name, or null if it showed none. Given, a save over any other version is refused, so two tabs
     * (or a tab and `mcpvm toolset build`) cannot silently overwrite each other's edits.
     */
    replaces: z.string().nullable().optional(),
  })
  .strict();

function refuseStale(name: string, replaces: string | null, previous: NamedToolset | undefined): void {
  if ((previous?.updatedAt ?? null) === replaces) return;
  const what = previous === undefined ? "was deleted" : replaces === null ? "was created elsewhere" : `was changed elsewhere (saved ${previous.updatedAt})`;
  throw new UiError("UI_TOOLSET_CHANGED", `Toolset "${name}" ${what} since the page showed it. Nothing was saved: check it on the page, then edit and save again.`);
}

/** The names a client sees when the toolset is equipped, and which references had to share one. */
function flattened(toolset: NamedToolset) {
  const refs = toolset.tools.map((ref) => parseToolRef(ref)).filter((ref): ref is ToolRef => ref !== undefined);
  const names = assignFlatNames(refs, BUILTIN_TOOL_NAMES);
  return {
    ...toolset,
    flat: toolset.tools.map((ref) => ({ ref, name: names.byRef.get(ref) ?? null })),
    collisions: names.collisions,
    equip: `mcpvm serve --toolset ${toolset.name}`,
  };
}

/**
 * Toolsets page: the same toolsets.json as `mcpvm toolset` and the gateway's build-toolset. A
 * toolset is equipped per gateway process (`mcpvm serve --toolset <name>`, or equip-toolset from
 * any client, for all of them), so the page shows that command and the names the tools will have.
 */
export function toolsetRoutes(router: Router, state: HostState): void {
  const store = async () => new ToolsetStore((await state.fresh()).paths.toolsetsFile);

  router.get("/api/toolsets", async () => ({ toolsets: (await (await store()).list()).map(flattened) }));

  router.post("/api/toolsets", async ({ body }) => {
    const request = parseBody(saveSchema, body, "the toolset");
    const tools = request.tools.map((t) => t.trim()).filter((t) => t !== "");
    if (tools.length === 0) throw new UiError("UI_BAD_REQUEST", "Name at least one tool as server.tool. Nothing was saved.");
    // As `mcpvm toolset build`: a server that is not configured is a typo, refused before saving.
    const service = await state.service();
    for (const ref of tools) {
      const parsed = parseToolRef(ref);
      if (parsed !== undefined) service.entry(parsed.server);
    }
    const name = request.name.trim();
    const { replaces } = request;
    const check = replaces === undefined ? undefined : (previous: NamedToolset | undefined) => refuseStale(name, replaces, previous);
    const saved = await (await store()).save({ name, tools, ...(request.description?.trim() ? { description: request.description.trim() } : {}) }, check);
    return { saved: flattened(saved) };
  });

  router.post("/api/toolsets/:name/delete", async ({ params }) => {
    await (await store()).delete(params.name as string);
    return { deleted: params.name };
  });

  /** Tools the page can offer when building a toolset: the trusted tools of every server this process has listed. */
  router.get("/api/toolsets/candidates", async () => {
    const service = await state.service();
    const refs: string[] = [];
    for (const summary of await service.summaries()) {
      if (!summary.enabled || summary.approval !== "approved") continue;
      try {
        const catalog = await service.catalog(summary.name);
        for (const tool of catalog.tools) refs.push(refKey({ server: summary.name, tool: tool.originalName }));
      } catch {
        // A server that cannot start offers nothing; the Servers page says why.
      }
    }
    return { refs };
  });
}
