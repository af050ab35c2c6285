import { ProtocolError, ProtocolErrorCode, type ListRootsResult, type Server } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { ServerRequestContext } from "../../mcp/client-manager/index.js";
import { errorMessage } from "../../util/errors.js";
import { reaches, type ServerReach } from "../clients/scope.js";
import type { InputRounds } from "./input-rounds.js";
import { clientCapabilities, isFastLaneOrigin, isGatewayOrigin, isModernRequest, type GatewayOrigin } from "./origin.js";

export interface RootsDeps {
  /** The live client connections (2025 sessions, stdio). */
  readonly liveServers: () => Iterable<Server>;
  /** The upstream servers a connection's client may reach (its token's scope). */
  readonly reachOf: (server: Server) => ServerReach;
  /** Whether an upstream is running now (telling a stopped one of a change would start it). */
  readonly connected: (name: string) => boolean;
  readonly rounds: InputRounds;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
}

function unavailable(why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MethodNotFound, `Roots are not available through the mcpvm gateway here: ${why}.`);
}

/**
 * roots/list of an upstream server, answered with the roots of the gateway's client it is for, and
 * that client's notifications/roots/list_changed passed on to the upstreams it reaches.
 *
 * An upstream connection is shared by every client of the gateway, so whose roots it gets is decided
 * as for its other requests (request-origin.ts originOf): during a client's call, that client's (a
 * 2025 client is asked on the call's stream, a 2026-07-28 client in an `input_required` round).
 * Outside any call (a server asks right after it starts, or after list_changed), the one live
 * connection whose client offers roots and may reach that server is asked; with none or several,
 * the upstream gets an error that says so, never another client's roots by guess.
 */
export class RootsRouter {
  /** Per upstream server: how its current connection sends notifications/roots/list_changed. */
  private readonly senders = new Map<string, () => Promise<void>>();

  constructor(private readonly deps: RootsDeps) {}

  /** ServerRequestHooks.rootsConnection: the latest connection of each server is the one told. */
  connection(server: string, sendListChanged: () => Promise<void>): void {
    this.senders.set(server, sendListChanged);
  }

  async list(origin: GatewayOrigin | undefined, ctx: ServerRequestContext): Promise<ListRootsResult> {
    if (origin !== undefined) return this.fromCaller(origin, ctx.signal);
    if (isFastLaneOrigin(ctx.origin.origin)) throw unavailable("the gateway's client does not offer roots");
    // Clients' calls in flight on that server, none of them clearly the asker: not a moment to pick one.
    if (ctx.origin.inFlight.some((o) => isGatewayOrigin(o) || isFastLaneOrigin(o))) {
      throw unavailable("calls of several clients are in flight on that server, so it is unclear whose roots to give");
    }
    const offering = [...this.deps.liveServers()].filter((live) => live.getClientCapabilities()?.roots !== undefined && reaches(this.deps.reachOf(live), ctx.server));
    const only = offering.length === 1 ? offering[0] : undefined;
    if (only === undefined) {
      throw unavailable(offering.length === 0 ? "no connected client offers roots" : `${offering.length} connected clients offer roots, so it is unclear whose to give`);
    }
    return only.listRoots(undefined, { signal: ctx.signal });
  }

  /** A client connection's roots changed: every running upstream it may reach is told (each then asks again). */
  clientChanged(client: Server): void {
    const reach = this.deps.reachOf(client);
    for (const [name, send] of this.senders) {
      if (!reaches(reach, name) || !this.deps.connected(name)) continue;
      // A 2026-07-28 connection has no such notification (its server asks within each call): refused there, and logged only.
      Promise.resolve()
        .then(send)
        .catch((error: unknown) => this.deps.logger.debug({ server: name }, `roots list_changed not delivered: ${this.deps.redact(errorMessage(error))}`));
    }
  }

  private async fromCaller(origin: GatewayOrigin, signal: AbortSignal): Promise<ListRootsResult> {
    if (clientCapabilities(origin)?.roots === undefined) throw unavailable("the gateway's client does not offer roots");
    if (!isModernRequest(origin.ctx)) return origin.ctx.mcpReq.send({ method: "roots/list" }, { signal });
    const asked = this.deps.rounds.ask(origin, { method: "roots/list", params: {} }, signal);
    if (asked === undefined) throw unavailable("the 2026-07-28 client's request is not a tool call (input rounds are offered for tools/call)");
    const view = await asked;
    if (view.kind !== "roots") throw new ProtocolError(ProtocolErrorCode.InternalError, "The client's answer was not a roots list.");
    return { roots: view.roots };
  }
}
