import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";

/** What a 2025 session's transport offers for feeding it a message (the SDK server reads its onmessage). */
interface SessionTransport {
  readonly onmessage?: ((message: JSONRPCMessage) => void) | undefined;
}

/** The ids of the JSON-RPC requests in a POST body: one message or a batch; notifications and responses have none. */
export function requestIdsOf(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const ids: Array<string | number> = [];
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) ids.push(id);
  }
  return ids;
}

/**
 * A 2025 session's POST answers on its own SSE stream, and the gateway keeps no event store, so once
 * the client closes that stream before the answer, the answer can never reach it. The SDK's session
 * transport does not cancel the request then (only a notifications/cancelled does), so a script and
 * its upstream calls would run on to the end. This gives the session's server the cancellation the
 * client did not send, as the 2026-07-28 path and the fast lane do when their request closes.
 */
export function cancelWhenClosed(res: ServerResponse, body: unknown, transport: SessionTransport): void {
  const ids = requestIdsOf(body);
  if (ids.length === 0) return;
  res.once("close", () => {
    if (res.writableFinished) return;
    for (const requestId of ids) {
      transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "The client closed the connection." } });
    }
  });
}
