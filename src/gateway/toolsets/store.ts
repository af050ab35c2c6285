import { dirname, join } from "node:path";
import { JsonFileStore } from "../../util/json-store.js";
import { ClientTokenStore } from "../clients/store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { GatewayError } from "../errors.js";
import { describeZodIssues } from "../../config/config-file.js";
import { toolsetFileSchema, toolsetInputSchema, type Toolset, type ToolsetFile, type ToolsetInput } from "./schema.js";

// Toolset names are the user's: `constructor` or `toString` must neither find Object.prototype's
// members nor be dropped on reading (parseJsonSafe drops `constructor` and `prototype` keys).
const ESCAPED = new Set(["constructor", "prototype"]);
const toKey = (name: string): string => (ESCAPED.has(name) ? `%${name}` : name);
const fromKey = (key: string): string => (key.startsWith("%") ? key.slice(1) : key);

export interface NamedToolset extends Toolset {
  readonly name: string;
}

/** Toolsets in the config home (toolsets.json, 0600), shared by the gateway and `mcpvm toolset`. */
export class ToolsetStore {
  private readonly store: JsonFileStore<ToolsetFile>;

  constructor(
    file: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = new JsonFileStore(file, toolsetFileSchema, () => ({ version: 1, toolsets: {} }), "your saved toolsets (mcpvm serve, mcpvm toolset)", STATE_FILE_LIMITS.toolsets);
  }

  get file(): string {
    return this.store.file;
  }

  async list(): Promise<NamedToolset[]> {
    const file = await this.store.read();
    return Object.entries(file.toolsets)
      .map(([key, toolset]) => ({ name: fromKey(key), ...toolset }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(name: string): Promise<NamedToolset> {
    const toolsets = (await this.store.read()).toolsets;
    const toolset = Object.hasOwn(toolsets, toKey(name)) ? toolsets[toKey(name)] : undefined;
    if (toolset === undefined) throw await this.unknown(name);
    return { name, ...toolset };
  }

  /**
   * Creates or replaces a toolset; the tool references are checked against servers by the caller.
   * `check` sees the toolset as saved now, under the file lock, and may refuse by throwing (nothing
   * is written): the dashboard uses it so a page editing a stale copy cannot overwrite a newer one.
   */
  async save(input: ToolsetInput, check?: (previous: NamedToolset | undefined) => void): Promise<NamedToolset> {
    const parsed = toolsetInputSchema.safeParse(input);
    if (!parsed.success) {
      throw new GatewayError("GATEWAY_TOOLSET_INVALID", describeZodIssues("toolset", parsed.error.issues), { data: { toolset: input.name } });
    }
    const at = this.now().toISOString();
    return this.store.update((draft) => {
      const key = toKey(parsed.data.name);
      const previous = Object.hasOwn(draft.toolsets, key) ? draft.toolsets[key] : undefined;
      check?.(previous === undefined ? undefined : { name: parsed.data.name, ...previous });
      const toolset: Toolset = {
        ...(parsed.data.description === undefined ? {} : { description: parsed.data.description }),
        tools: [...new Set(parsed.data.tools)],
        createdAt: previous?.createdAt ?? at,
        updatedAt: at,
      };
      draft.toolsets[key] = toolset;
      return { name: parsed.data.name, ...toolset };
    });
  }

  /**
   * Deletes a toolset, unless a client token is bound to it: that client would be refused every
   * request from then on (its token names a toolset that no longer exists), so its token goes first.
   */
  async delete(name: string): Promise<void> {
    // gateway-clients.json lives beside toolsets.json in the config home (config/paths.ts); one that does not read binds nothing here.
    const clients = await new ClientTokenStore(join(dirname(this.file), "gateway-clients.json")).list().catch(() => []);
    const bound = clients.filter((client) => client.toolset === name).map((client) => client.name);
    if (bound.length > 0) {
      throw new GatewayError(
        "GATEWAY_TOOLSET_IN_USE",
        `Toolset "${name}" is bound to the client token${bound.length > 1 ? "s" : ""} of ${bound.join(", ")}, which would be refused every request without it; nothing was deleted. Revoke ${bound.length > 1 ? "them" : "it"} first (${bound.map((c) => `mcpvm gateway token revoke ${c}`).join("; ")}), or edit the toolset instead.`,
        { data: { toolset: name, clients: bound } },
      );
    }
    const existed = await this.store.update((draft) => {
      if (!Object.hasOwn(draft.toolsets, toKey(name))) return false;
      delete draft.toolsets[toKey(name)];
      return true;
    });
    if (!existed) throw await this.unknown(name);
  }

  private async unknown(name: string): Promise<GatewayError> {
    const names = Object.keys((await this.store.read()).toolsets).map(fromKey).sort();
    return new GatewayError("GATEWAY_TOOLSET_UNKNOWN", `No toolset named "${name}" (saved toolsets: ${names.join(", ") || "none"}). Create one with build-toolset or \`mcpvm toolset build\`.`, {
      data: { toolset: name },
    });
  }
}
