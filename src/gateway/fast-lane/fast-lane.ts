import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import { errorMessage } from "../../util/errors.js";
import type { ClientScope } from "../clients/scope.js";
import type { Gateway } from "../gateway.js";
import type { FastLaneOrigin } from "../passthrough/origin.js";
import { GATEWAY_SERVER_INFO } from "../server-factory.js";
import { projectLegacy, projectModern } from "./encode.js";
import { declaresNoRounds, recognizeFastCall, type FastCall } from "./recognize.js";

/** A live 2025 session the HTTP layer has verified (owned by the caller, or rebuilt from its signed id). */
export interface FastLaneSession {
  readonly id: string;
  /** The session's SDK server instance: what its client declared at initialize. */
  readonly server: Server;
}

/**
 * Answers plain direct-tool calls over HTTP without the SDK's server, transport and per-message
 * schema work (docs/ARCHITECTURE.md "The gateway's fast lane"). It sits after everything the HTTP
 * layer checks for every request (Host/Origin, drain, authentication, the client's rate limit,
 * body size, JSON, session ownership) and calls the same Gateway.callTool as the SDK's tools/call
 * handler (allow-lists, approval re-check, pinned-schema validation, redaction, result caps,
 * activity log, spans), then writes the JSON-RPC answer the SDK would write, as plain JSON.
 * Requests it does not recognise (recognize.ts) are left to the SDK path: `serve*` returns false.
 */
export class FastLane {
  /** Fast calls in flight per 2025 session, so that session's notifications/cancelled reaches them. */
  private readonly inFlight = new Map<string, Map<string | number, AbortController>>();
  /** Calls answered here since start (reported on /health, so an operator can see the lane is used). */
  served = 0;

  constructor(
    private readonly gateway: Gateway,
    private readonly logger: Logger,
  ) {}

  /** A sessionless 2026-07-28 request. */
  async serveModern(req: IncomingMessage, res: ServerResponse, body: unknown, client: ClientScope): Promise<boolean> {
    const call = recognizeFastCall("modern", req.headers, body);
    if (call === undefined) return false;
    await this.answer(res, call, client, "http", call.clientName, {});
    return true;
  }

  /** A request in a verified 2025 session whose client declared no elicitation, sampling or roots. */
  async serveLegacy(req: IncomingMessage, res: ServerResponse, body: unknown, client: ClientScope, session: FastLaneSession): Promise<boolean> {
    const call = recognizeFastCall("legacy", req.headers, body);
    if (call === undefined || !declaresNoRounds(session.server.getClientCapabilities())) return false;
    const clientName = session.server.getClientVersion()?.name.slice(0, 100);
    await this.answer(res, call, client, session.id, clientName, { "mcp-session-id": session.id });
    return true;
  }

  /** A 2025 session's notifications/cancelled: aborts the fast call it names (the SDK path gets the notification too). */
  cancel(session: string, requestId: string | number): void {
    this.inFlight.get(session)?.get(requestId)?.abort(new Error("The client cancelled the request."));
  }

  private async answer(res: ServerResponse, call: FastCall, client: ClientScope, session: string, clientName: string | undefined, headers: Record<string, string>): Promise<void> {
    this.served += 1;
    const controller = new AbortController();
    // The client going away cancels the call, as the SDK transport's request signal does.
    const onClose = (): void => {
      if (!res.writableFinished) controller.abort(new Error("The client closed the connection."));
    };
    res.once("close", onClose);
    const calls = this.track(session, call.id, controller);
    const origin: FastLaneOrigin = { kind: "fast-lane-origin", session };
    let message: Record<string, unknown>;
    try {
      const result = await this.gateway.callTool(call.name, call.args, {
        signal: controller.signal,
        session,
        rpcId: call.id,
        origin,
        client: client.via === "client-token" || client.via === "oauth" ? client.name : clientName,
        caller: client,
        transport: "http",
        meta: call.meta,
      });
      if (call.era === "modern") {
        message = { result: projectModern(result, GATEWAY_SERVER_INFO), jsonrpc: "2.0", id: call.id };
      } else {
        const outputSchema = result.isError === true ? undefined : (this.gateway.equipment.direct(call.name) ?? (await this.gateway.exposed?.find(call.name, new Set(), {})))?.definition.outputSchema;
        message = { result: projectLegacy(result, outputSchema), jsonrpc: "2.0", id: call.id };
      }
    } catch (error) {
      // What the SDK's protocol layer answers for a handler that threw.
      this.logger.error({ rpcId: call.id }, `fast-lane tools/call failed: ${errorMessage(error)}`);
      message = { jsonrpc: "2.0", id: call.id, error: { code: -32603, message: errorMessage(error) } };
    } finally {
      res.off("close", onClose);
      calls?.delete(call.id);
      if (calls?.size === 0) this.inFlight.delete(session);
    }
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(message));
  }

  private track(session: string, id: string | number, controller: AbortController): Map<string | number, AbortController> | undefined {
    // Sessionless requests are cancelled by closing them; only 2025 sessions send notifications/cancelled.
    if (session === "http") return undefined;
    let calls = this.inFlight.get(session);
    if (calls === undefined) {
      calls = new Map();
      this.inFlight.set(session, calls);
    }
    calls.set(id, controller);
    return calls;
  }
}
