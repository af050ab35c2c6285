import type { McpAccess } from "../../mcp/service/index.js";
import type { BuiltinToolName } from "../builtin-tools.js";
import type { ToolDirectory } from "../directory.js";
import { Equipment } from "../equipment.js";
import { GatewayError } from "../errors.js";
import { isMcpvmError } from "../../util/errors.js";
import { parseToolRef, refKey } from "../flatten.js";
import type { ToolsetStore } from "../toolsets/store.js";
import { allowsServer, isScoped, type ClientScope } from "./scope.js";

/** What a scoped client may use of the gateway's own tools: code mode, never what changes other clients' view. */
export const SCOPED_BUILTINS: ReadonlySet<BuiltinToolName> = new Set<BuiltinToolName>(["list_mcp_tools", "run_mcp_script", "search_tools", "discover-all-tools"]);

/** One client's view of the gateway: the MCP access its scripts get and the direct tools it sees. */
export interface ClientView {
  readonly access: McpAccess | undefined;
  /** The client's own direct tools (its token's toolset), or undefined to use the gateway's equipped toolset. */
  readonly equipment: Equipment | undefined;
  builtinAllowed(name: BuiltinToolName): boolean;
}

const UNSCOPED_VIEW: ClientView = { access: undefined, equipment: undefined, builtinAllowed: () => true };

/**
 * Builds and caches client views per toolset: a token's toolset is resolved once (like `serve
 * --toolset`) into its own Equipment, re-resolved with the gateway's when upstream listings change.
 */
export class ClientViews {
  private readonly byToolset = new Map<string, Promise<{ equipment: Equipment; refs: readonly string[] }>>();
  /** Each resolved toolset's references as read, to tell whether an edit of toolsets.json changed what its clients see. */
  private readonly readRefs = new Map<string, string>();

  constructor(
    private readonly directory: ToolDirectory,
    private readonly toolsets: ToolsetStore,
  ) {}

  async view(scope: ClientScope): Promise<ClientView> {
    if (!isScoped(scope)) return UNSCOPED_VIEW;
    const servers = scope.servers === undefined ? undefined : new Set(scope.servers);
    if (scope.toolset === undefined) {
      return { access: { servers: servers ?? new Set() }, equipment: undefined, builtinAllowed: (name) => SCOPED_BUILTINS.has(name) };
    }
    const { equipment, refs: written } = await this.toolsetEquipment(scope.toolset).catch((error: unknown) => {
      throw boundToolsetGone(scope, error);
    });
    // As written and as resolved (the server's own name), so "server.tool" matches the catalog's originalName.
    const refs = [...written, ...equipment.list().map((t) => refKey(t.ref))];
    const tools = new Set(refs.filter((ref) => allowsServer(scope, parseToolRef(ref)?.server ?? "")));
    const toolServers = new Set([...tools].map((ref) => parseToolRef(ref)?.server ?? ""));
    return { access: { servers: toolServers, tools }, equipment, builtinAllowed: (name) => SCOPED_BUILTINS.has(name) };
  }

  /**
   * toolsets.json changed (`mcpvm toolset …`, the dashboard, build-toolset): every client toolset is
   * read again on its next use. Answers whether one that clients use now names other tools or is
   * gone, so they are told (list_changed) instead of finding out at their next list.
   */
  async reload(): Promise<boolean> {
    const before = new Map(this.readRefs);
    this.byToolset.clear();
    this.readRefs.clear();
    let changed = false;
    for (const [name, refs] of before) {
      const now = await this.toolsets.get(name).then((t) => JSON.stringify(t.tools), () => undefined);
      if (now !== refs) changed = true;
    }
    return changed;
  }

  /** Re-resolves every client toolset (an upstream listing changed); answers whether a client's direct tools changed. */
  async refresh(): Promise<boolean> {
    let changed = false;
    for (const entry of this.byToolset.values()) {
      const { equipment } = await entry.catch(() => ({ equipment: undefined }));
      const toolset = equipment?.toolset;
      if (equipment === undefined || toolset === undefined) continue;
      const outcome = await equipment.equip(this.directory, toolset, {}).catch(() => undefined);
      if (outcome?.changed === true) changed = true;
    }
    return changed;
  }

  private toolsetEquipment(name: string): Promise<{ equipment: Equipment; refs: readonly string[] }> {
    let entry = this.byToolset.get(name);
    if (entry === undefined) {
      entry = (async () => {
        const toolset = await this.toolsets.get(name);
        this.readRefs.set(name, JSON.stringify(toolset.tools));
        const equipment = new Equipment();
        await equipment.equip(this.directory, toolset, {});
        return { equipment, refs: [...toolset.tools] };
      })();
      entry.catch(() => this.byToolset.delete(name));
      this.byToolset.set(name, entry);
    }
    return entry;
  }
}

/**
 * The toolset a client's token is bound to is gone (toolsets.json edited by hand or restored from a
 * copy): the store's "create one with build-toolset" is advice this client cannot follow.
 */
function boundToolsetGone(scope: ClientScope, error: unknown): unknown {
  if (!isMcpvmError(error) || error.code !== "GATEWAY_TOOLSET_UNKNOWN" || scope.toolset === undefined) return error;
  return new GatewayError(
    "GATEWAY_TOOLSET_UNKNOWN",
    `The toolset "${scope.toolset}" that the token of client "${scope.name}" is bound to no longer exists, so this client has no tools; ask the gateway's operator to save it again (\`mcpvm toolset build ${scope.toolset} <server.tool>...\`) or for a token bound to another toolset.`,
    { data: { toolset: scope.toolset, client: scope.name } },
  );
}

/** Direct tools a client sees: its own toolset's, or the gateway's cut to its servers. */
export function visibleDirect<T extends { ref: { server: string } }>(scope: ClientScope, tools: readonly T[]): T[] {
  return tools.filter((t) => allowsServer(scope, t.ref.server));
}
