import type { CallerOptions, ServerRequestMethod, ServerRequestParams, ServerRequestResult } from "../../mcp/client-manager/index.js";
import type { McpService } from "../../mcp/service/index.js";
import type { Redactor } from "../../logging/redact.js";

/** The upstream servers whose resources, prompts, completion and logging the gateway passes through. */
export interface Upstreams {
  /** In the order results are merged (and a URI claimed twice is given to the first). */
  names(): string[];
  request<M extends ServerRequestMethod>(server: string, method: M, params: ServerRequestParams<M>, caller: CallerOptions): Promise<ServerRequestResult<M>>;
  /** maxResponseBytes of the server's launch. */
  maxResponseBytes(server: string): number | undefined;
  /** Whether the server is running now (asking it something would not start it). */
  connected(server: string): boolean;
  /** Keeps the server running (no idle close, no eviction) until the release runs. */
  hold(server: string): () => void;
}

/**
 * Upstreams over the MCP service: `expose` limits them to one server; otherwise every enabled one.
 * Each request goes through the service's catalog first, so approval is checked (and the server
 * started) exactly as for a tool call, and the answer is redacted like a tool result.
 */
export function serviceUpstreams(service: McpService, redactor: Redactor, expose: string | undefined): Upstreams {
  return {
    names: () => (expose === undefined ? service.enabledServers() : [expose]),
    request: async (server, method, params, caller) => {
      await service.catalog(server, caller);
      return redactor.redactValue(await service.clients.request(server, method, params, caller));
    },
    maxResponseBytes: (server) => service.clients.launchLimits(server)?.maxResponseBytes,
    connected: (server) => service.clients.serverNames().includes(server) && service.clients.status(server).state === "connected",
    hold: (server) => service.clients.hold(server),
  };
}
