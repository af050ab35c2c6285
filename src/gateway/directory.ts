import type { Logger } from "pino";
import type { CallerOptions } from "../mcp/client-manager/index.js";
import type { McpService, ServerCatalog } from "../mcp/service/index.js";
import { errorMessage, isMcpvmError } from "../util/errors.js";

/** Why a configured server's tools are not offered. */
export interface UnavailableServer {
  readonly server: string;
  readonly reason: "disabled" | "unapproved" | "changed" | "failed";
  readonly message: string;
}

export interface Catalogs {
  readonly catalogs: readonly ServerCatalog[];
  readonly unavailable: readonly UnavailableServer[];
}

function approveHint(server: string): string {
  return `approve it with \`mcpvm mcp approve ${server}\``;
}

/**
 * The gateway's view of the MCP servers. Approval is checked here before a catalog is asked for,
 * so an unapproved server is reported, never started (the service would refuse it anyway, before
 * spawn; asking first keeps that refusal out of every listing).
 */
export class ToolDirectory {
  private readonly hinted = new Set<string>();

  constructor(
    readonly service: McpService,
    private readonly logger: Logger,
  ) {}

  /**
   * Servers the gateway cannot use without the person doing something first, with what to do;
   * `only`: that server alone, so asking for one server (a toolset's check) warns about no other.
   */
  async blocked(only?: string): Promise<UnavailableServer[]> {
    const blocked: UnavailableServer[] = [];
    for (const name of this.service.serverNames().filter((n) => only === undefined || n === only)) {
      const entry = this.service.entry(name);
      if (!entry.enabled) {
        blocked.push({ server: name, reason: "disabled", message: `${name} is disabled (enable it with \`mcpvm mcp enable ${name}\`)` });
        continue;
      }
      const status = await this.service.approvalStatus(name).catch((error: unknown) => ({ state: "error" as const, error }));
      if (status.state === "approved") continue;
      const reason = status.state === "changed" ? "changed" : status.state === "unapproved" ? "unapproved" : "failed";
      const message =
        status.state === "error"
          ? `${name}: its approval cannot be checked (${errorMessage(status.error)})`
          : status.state === "changed"
            ? `${name} changed since it was approved and is not started; review and ${approveHint(name)}`
            : `${name} is not approved and is not started; ${approveHint(name)}`;
      blocked.push({ server: name, reason, message });
      if (!this.hinted.has(name)) {
        this.hinted.add(name);
        this.logger.warn({ server: name, approval: status.state }, `MCP server ${message}`);
      }
    }
    return blocked;
  }

  /**
   * One paragraph for tool descriptions: which servers exist and which wait for approval; `reach`:
   * only those a limited client token reaches (it must not learn the names of the others).
   */
  async note(reach?: ReadonlySet<string>): Promise<string> {
    const ready = [];
    const inReach = (name: string): boolean => reach === undefined || reach.has(name);
    const blocked = (await this.blocked()).filter((b) => inReach(b.server));
    const blockedNames = new Set(blocked.map((b) => b.server));
    for (const name of this.service.enabledServers()) if (!blockedNames.has(name) && inReach(name)) ready.push(name);
    const lines = [`MCP servers available: ${ready.join(", ") || "none"}.`];
    if (blocked.length > 0) lines.push(`Not available until the user acts: ${blocked.map((b) => b.message).join("; ")}.`);
    return lines.join(" ");
  }

  /** Catalogs of the approved, enabled servers (connecting them if needed); failures are reported, not thrown. */
  async catalogs(caller: CallerOptions, only?: string, allowed: (server: string) => boolean = () => true): Promise<Catalogs> {
    const blocked = (await this.blocked(only)).filter((b) => allowed(b.server));
    const blockedNames = new Set(blocked.map((b) => b.server));
    const names = this.service.enabledServers().filter((name) => (only === undefined || name === only) && allowed(name));
    if (only !== undefined && !this.service.serverNames().includes(only)) {
      return { catalogs: [], unavailable: [{ server: only, reason: "failed", message: `no MCP server named "${only}" is configured (configured: ${this.service.serverNames().join(", ") || "none"})` }] };
    }
    const unavailable: UnavailableServer[] = blocked.filter((b) => only === undefined || b.server === only);
    const results = await Promise.all(
      names
        .filter((name) => !blockedNames.has(name))
        .map(async (name) => {
          try {
            return await this.service.catalog(name, caller);
          } catch (error) {
            const code = isMcpvmError(error) ? error.code : "ERROR";
            this.logger.warn({ server: name, code }, `MCP server ${name} is unavailable: ${errorMessage(error)}`);
            unavailable.push({ server: name, reason: "failed", message: `${name} failed: ${errorMessage(error)}` });
            return undefined;
          }
        }),
    );
    return { catalogs: results.filter((c): c is ServerCatalog => c !== undefined), unavailable };
  }
}
