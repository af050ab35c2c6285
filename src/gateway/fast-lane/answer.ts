import { ProtocolError } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import { errorMessage } from "../../util/errors.js";
import type { ClientScope } from "../clients/scope.js";
import type { Gateway } from "../gateway.js";
import type { FastLaneOrigin } from "../passthrough/origin.js";
import { GATEWAY_SERVER_INFO } from "../server-factory.js";
import { projectLegacy, projectModern } from "./encode.js";
import type { FastCall } from "./recognize.js";

/** Who asked, as the transport in front knows it. */
export interface FastCaller {
  /** The HTTP session id, "http" for a sessionless request, "stdio" for the stdio connection. */
  readonly session: string;
  readonly transport: "http" | "stdio";
  /** The client the HTTP layer authenticated; absent on stdio (whoever started the process). */
  readonly client?: ClientScope;
  /** The MCP client's own name (initialize or the 2026 envelope). */
  readonly clientName: string | undefined;
}

/**
 * Runs one recognized call through Gateway.callTool, the same call the SDK's tools/call handler
 * makes, and returns the JSON-RPC message the SDK would write for it. A handler that throws is
 * answered as the SDK's protocol layer answers it (a ProtocolError's code and data, else -32603).
 */
export async function answerFastCall(gateway: Gateway, logger: Logger, call: FastCall, caller: FastCaller, signal: AbortSignal): Promise<Record<string, unknown>> {
  const origin: FastLaneOrigin = { kind: "fast-lane-origin", session: caller.session };
  const client = caller.client;
  try {
    const result = await gateway.callTool(call.name, call.args, {
      signal,
      session: caller.session,
      rpcId: call.id,
      origin,
      client: client !== undefined && (client.via === "client-token" || client.via === "oauth") ? client.name : caller.clientName,
      ...(client === undefined ? {} : { caller: client }),
      transport: caller.transport,
      meta: call.meta,
    });
    if (call.era === "modern") return { result: projectModern(result, GATEWAY_SERVER_INFO), jsonrpc: "2.0", id: call.id };
    const outputSchema = result.isError === true ? undefined : (gateway.equipment.direct(call.name) ?? (await gateway.exposed?.find(call.name, new Set(), {})))?.definition.outputSchema;
    return { result: projectLegacy(result, outputSchema), jsonrpc: "2.0", id: call.id };
  } catch (error) {
    // A ProtocolError (an unknown tool) keeps its code and data, as the SDK's protocol layer sends it; anything else is -32603.
    if (ProtocolError.isInstance(error)) return { jsonrpc: "2.0", id: call.id, error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
    logger.error({ rpcId: call.id }, `fast-lane tools/call failed: ${errorMessage(error)}`);
    return { jsonrpc: "2.0", id: call.id, error: { code: -32603, message: errorMessage(error) } };
  }
}

/** Fast calls in flight per session, so that session's `notifications/cancelled` reaches them. */
export class InFlightCalls {
  private readonly sessions = new Map<string, Map<string | number, AbortController>>();

  /** Registers a call; the returned function forgets it once answered. */
  track(session: string, id: string | number, controller: AbortController): () => void {
    let calls = this.sessions.get(session);
    if (calls === undefined) {
      calls = new Map();
      this.sessions.set(session, calls);
    }
    calls.set(id, controller);
    const held = calls;
    return () => {
      if (held.get(id) === controller) held.delete(id);
      if (held.size === 0 && this.sessions.get(session) === held) this.sessions.delete(session);
    };
  }

  cancel(session: string, id: string | number, reason: string): void {
    this.sessions.get(session)?.get(id)?.abort(new Error(reason));
  }

  /** The connection ended: every call still in flight is aborted, as the SDK aborts its handlers. */
  abortAll(reason: string): void {
    for (const calls of this.sessions.values()) for (const controller of calls.values()) controller.abort(new Error(reason));
  }
}
