import type { Tool } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { CallerOptions } from "../mcp/client-manager/index.js";
import type { HeldTool, McpService } from "../mcp/service/index.js";
import { BUILTIN_TOOL_NAMES } from "./builtin-tools.js";
import type { DirectTool } from "./equipment.js";

/**
 * `mcpvm serve --expose <server>`: one upstream server's trusted tools under their own names,
 * beside the gateway's own tools, so any client gets mcpvm's approval, pins, audit and logging in
 * front of that one server. A tool whose name is taken by a gateway tool or an equipped toolset
 * tool is left out (and logged): the gateway's own names win.
 */
export class ExposedServer {
  private tools = new Map<string, DirectTool>();
  private reported = new Set<string>();

  constructor(
    readonly server: string,
    private readonly service: McpService,
    private readonly logger: Logger,
  ) {}

  /** The trusted tools as the server lists them, minus names the gateway already uses. */
  async list(taken: ReadonlySet<string>, caller: CallerOptions = {}): Promise<Tool[]> {
    const catalog = await this.service.catalog(this.server, caller);
    const next = new Map<string, DirectTool>();
    for (const tool of catalog.tools) {
      const name = tool.definition.name;
      if (taken.has(name) || (BUILTIN_TOOL_NAMES as readonly string[]).includes(name)) {
        if (!this.reported.has(name)) this.logger.warn({ server: this.server, tool: name }, `exposed tool ${this.server}.${name} is hidden: the gateway already has a tool of that name`);
        this.reported.add(name);
        continue;
      }
      next.set(name, { name, ref: { server: this.server, tool: tool.originalName }, definition: tool.definition });
    }
    this.tools = next;
    return [...next.values()].map((t) => t.definition);
  }

  /** A tool of that name the server lists but mcpvm holds (changed since approval, or flagged by the audit). */
  async held(name: string, caller: CallerOptions): Promise<HeldTool | undefined> {
    const catalog = await this.service.catalog(this.server, caller).catch(() => undefined);
    return catalog?.heldTool(name);
  }

  /** The exposed tool of that name (after the last list; lists once if nothing was listed yet). */
  async find(name: string, taken: ReadonlySet<string>, caller: CallerOptions): Promise<DirectTool | undefined> {
    if (!this.tools.has(name)) await this.list(taken, caller).catch(() => undefined);
    return this.tools.get(name);
  }
}
