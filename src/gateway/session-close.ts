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
 * A 2025 session's POST answers on its own SSE stream. Once the client closes that stream before the
 * answer, it may resume it with Last-Event-ID (the session's event store keeps the events), and the
 * spec says a disconnection is not a cancellation; but a client that gave up never resumes, and the
 * SDK's session transport does not cancel the request then (only a notifications/cancelled does), so
 * a script and its upstream calls would run on to the end. So: a request whose stream closed and
 * that the client did not resume within `graceMs` is cancelled for it, as the 2026-07-28 path and the
 * fast lane do at once when their request closes.
 */
export function cancelWhenClosed(res: ServerResponse, body: unknown, transport: SessionTransport, resumedSince: (since: number) => boolean, graceMs: number): void {
  const ids = requestIdsOf(body);
  if (ids.length === 0) return;
  res.once("close", () => {
    if (res.writableFinished) return;
    const closedAt = Date.now();
    setTimeout(() => {
      if (resumedSince(closedAt)) return;
      for (const requestId of ids) {
        transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "The client closed the connection and did not resume it." } });
      }
    }, graceMs).unref();
  });
}
