import type { JSONRPCMessage, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { connectionDropped } from "./http-failure.js";

type Send = StreamableHTTPClientTransport["send"];
type SendOptions = Parameters<Send>[1];

function requestId(message: JSONRPCMessage): string | number | undefined {
  return "method" in message && "id" in message ? message.id : undefined;
}

function responseId(message: JSONRPCMessage): string | number | undefined {
  return !("method" in message) && "id" in message ? message.id : undefined;
}

/**
 * A streamable HTTP server that dies mid-call (a crash, a restart) ends the request's SSE stream
 * without an answer. The SDK's client transport then only reports an error, and the request waits
 * for its timeout (30 s by default), to fail as "did not answer within …" although the server is
 * gone. Here a request stream that ends (after the SDK's own resumption attempts) with the request
 * still unanswered closes the connection, as a stdio server's exit does: every call in flight fails
 * at once with MCP_TRANSPORT_CLOSED, and the next call connects again.
 */
export function closeOnUnansweredStream(transport: StreamableHTTPClientTransport): void {
  const unanswered = new Set<string | number>();
  let inner: StreamableHTTPClientTransport["onmessage"];
  // The SDK's protocol layer sets onmessage when it connects: answers are seen on the way to it.
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => (inner === undefined ? undefined : seen),
    set: (handler: StreamableHTTPClientTransport["onmessage"]) => {
      inner = handler;
    },
  });
  const seen = (message: JSONRPCMessage): void => {
    const id = responseId(message);
    if (id !== undefined) unanswered.delete(id);
    inner?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: SendOptions) => {
    const id = requestId(message);
    // A caller that watches its own stream's end (the SDK's subscriptions/listen) keeps its handling.
    if (id === undefined || options?.onRequestStreamEnd !== undefined) return send(message, options);
    unanswered.add(id);
    return send(message, {
      ...options,
      onRequestStreamEnd: () => {
        if (!unanswered.delete(id)) return;
        void transport.close().catch(() => undefined);
      },
    }).catch((error: unknown) => {
      // A 2026-07-28 call is one POST answered in its response: a server that dies before answering
      // fails the fetch itself, and no stream ends. Its connection is as gone as a 2025 stream's.
      if (unanswered.delete(id) && connectionDropped(error)) void transport.close().catch(() => undefined);
      throw error;
    });
  };
}
