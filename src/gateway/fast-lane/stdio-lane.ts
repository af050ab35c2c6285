import type { JSONRPCMessage, McpRequestContext, Server } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { Gateway } from "../gateway.js";
import type { Passthrough } from "../passthrough/passthrough.js";
import { answerFastCall, InFlightCalls } from "./answer.js";
import { cancelledRequestId, declaresNoRounds, FAST_LEGACY_VERSIONS, recognizeStdioCall } from "./recognize.js";

const SESSION = "stdio";

/**
 * The fast lane on the stdio face (docs/ARCHITECTURE.md "The gateway's fast lane"): a plain
 * tools/call of a direct tool on a 2025-era connection is answered here, through the same
 * Gateway.callTool as the SDK's handler, without the SDK's per-message schema work, server
 * dispatch and result encoding. Only once the SDK's server instance for the connection has
 * completed initialize with a version the lane encodes, for a client that declared no
 * elicitation, sampling, roots or tasks and asked for no log messages; anything else (and every
 * 2026-07-28 connection) goes to serveStdio as before.
 */
export class StdioFastLane {
  private readonly inFlight = new InFlightCalls();
  /** The connection's pinned 2025-era SDK instance, once serveStdio has made it. */
  private server: Server | undefined;
  /** Calls answered here since start. */
  served = 0;

  constructor(
    private readonly gateway: Gateway,
    private readonly logger: Logger,
    private readonly passthrough: Passthrough | undefined,
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
  ) {}

  /** Wraps the SDK server factory so the lane knows the connection's instance and era. */
  watch(factory: (ctx: McpRequestContext) => Server): (ctx: McpRequestContext) => Server {
    return (ctx) => {
      const server = factory(ctx);
      this.server = ctx.era === "legacy" ? server : undefined;
      return server;
    };
  }

  /** Offered every parsed stdin line before the SDK; true when the lane answers it. */
  readonly intercept = (message: unknown): boolean => {
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) {
      // The SDK sees the notification too; it knows no request of that id and ignores it.
      this.inFlight.cancel(SESSION, cancelled, "The client cancelled the request.");
      return false;
    }
    const server = this.server;
    if (server === undefined || !this.ready(server)) return false;
    const call = recognizeStdioCall(message);
    if (call === undefined) return false;
    this.served += 1;
    const controller = new AbortController();
    const forget = this.inFlight.track(SESSION, call.id, controller);
    const clientName = server.getClientVersion()?.name.slice(0, 100);
    void answerFastCall(this.gateway, this.logger, call, { session: SESSION, transport: "stdio", clientName }, controller.signal)
      .then((answer) => {
        forget();
        // A cancelled call is not answered, nor one whose connection ended (the SDK's protocol layer does the same).
        if (controller.signal.aborted) return;
        return this.send(answer as JSONRPCMessage);
      })
      .catch((error: unknown) => this.logger.debug({ rpcId: call.id }, `stdio fast lane: the answer was not written: ${String(error)}`));
    return true;
  };

  /** The connection ended: calls in flight are aborted and not answered. */
  close(): void {
    this.inFlight.abortAll("The client closed the connection.");
  }

  private ready(server: Server): boolean {
    const version = server.getNegotiatedProtocolVersion();
    if (version === undefined || !FAST_LEGACY_VERSIONS.has(version) || server.getClientVersion() === undefined) return false;
    return declaresNoRounds(server.getClientCapabilities()) && !(this.passthrough?.wantsLogs(server) ?? false);
  }
}
