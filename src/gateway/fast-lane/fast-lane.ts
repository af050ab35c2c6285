import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { ClientScope } from "../clients/scope.js";
import type { Gateway } from "../gateway.js";
import { answerFastCall, InFlightCalls, type FastCaller } from "./answer.js";
import { declaresNoRounds, recognizeFastCall, type FastCall } from "./recognize.js";

/** A live 2025 session the HTTP layer has verified (owned by the caller, or rebuilt from its signed id). */
export interface FastLaneSession {
  readonly id: string;
  /** The session's SDK server instance: what its client declared at initialize. */
  readonly server: Server;
  /** The session asked for log messages (logging/setLevel): the SDK path relates them to the call. */
  readonly wantsLogs: boolean;
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
  private readonly inFlight = new InFlightCalls();
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
    await this.answer(res, call, { session: "http", transport: "http", client, clientName: call.clientName }, {});
    return true;
  }

  /** A request in a verified 2025 session whose client declared no elicitation, sampling or roots, nor a log level. */
  async serveLegacy(req: IncomingMessage, res: ServerResponse, body: unknown, client: ClientScope, session: FastLaneSession): Promise<boolean> {
    const call = recognizeFastCall("legacy", req.headers, body);
    if (call === undefined || !declaresNoRounds(session.server.getClientCapabilities()) || session.wantsLogs) return false;
    const clientName = session.server.getClientVersion()?.name.slice(0, 100);
    await this.answer(res, call, { session: session.id, transport: "http", client, clientName }, { "mcp-session-id": session.id });
    return true;
  }

  /** A 2025 session's notifications/cancelled: aborts the fast call it names (the SDK path gets the notification too). */
  cancel(session: string, requestId: string | number): void {
    this.inFlight.cancel(session, requestId, "The client cancelled the request.");
  }

  private async answer(res: ServerResponse, call: FastCall, caller: FastCaller, headers: Record<string, string>): Promise<void> {
    this.served += 1;
    const controller = new AbortController();
    // The client going away cancels the call, as the SDK transport's request signal does.
    const onClose = (): void => {
      if (!res.writableFinished) controller.abort(new Error("The client closed the connection."));
    };
    res.once("close", onClose);
    // Sessionless requests are cancelled by closing them; only 2025 sessions send notifications/cancelled.
    const forget = caller.session === "http" ? undefined : this.inFlight.track(caller.session, call.id, controller);
    let message: Record<string, unknown>;
    try {
      message = await answerFastCall(this.gateway, this.logger, call, caller, controller.signal);
    } finally {
      res.off("close", onClose);
      forget?.();
    }
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(message));
  }
}
