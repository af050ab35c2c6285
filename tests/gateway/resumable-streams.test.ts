import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, firstText, makeHome, type TestHome } from "./helpers.js";

/**
 * MCP "Resumability and Redelivery" on a 2025 session: the client's connection drops in the middle
 * of a long call (after its first progress notification); the SDK client reconnects with
 * Last-Event-ID and the gateway replays what it missed, so the result arrives, once. Real gateway,
 * server-everything as the upstream, real HTTP on 127.0.0.1; the drop is the client's fetch
 * cancelling the response body, which closes the socket.
 */
describe("resumable 2025 streams", () => {
  let home: TestHome;
  let running: RunningGateway;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false, expose: "everything" });
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("a call whose stream dropped mid-call is resumed with Last-Event-ID and answered exactly once", async () => {
    let dropped = false;
    const resumedWith: string[] = [];
    const bodies: string[] = [];
    const dropping: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      const resume = headers.get("last-event-id");
      if (resume !== null) resumedWith.push(resume);
      const response = await fetch(input, init);
      const isCall = init?.method === "POST" && String(init.body).includes("trigger-long-running-operation");
      if (response.body === null || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let seen = "";
      // Every SSE body the client reads is recorded, to count the answers; the call's own stream breaks after its first progress.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          seen += decoder.decode(value, { stream: true });
          bodies.push(decoder.decode(value));
          controller.enqueue(value);
          if (isCall && !dropped && seen.includes("notifications/progress")) {
            dropped = true;
            await reader.cancel();
            controller.error(new TypeError("connection reset (test)"));
          }
        },
        cancel: () => reader.cancel(),
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    // roots declared: the call takes the SDK session path (the fast lane serves only clients that declare no rounds).
    const client = new Client({ name: "resumer", version: "1" }, { capabilities: { roots: {} }, versionNegotiation: { mode: "legacy" } });
    client.setRequestHandler("roots/list", async () => ({ roots: [] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { fetch: dropping }));
    const progress: number[] = [];
    const result = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 2, steps: 4 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(dropped).toBe(true);
    expect(resumedWith.length).toBeGreaterThanOrEqual(1);
    expect(firstText(result)).toContain("Long running operation completed");
    // Every progress step arrived, none twice, and the answer came over the wire once.
    expect(progress).toEqual([1, 2, 3, 4]);
    const answers = bodies.join("").split("Long running operation completed").length - 1;
    expect(answers).toBe(1);
    await client.close();
  }, 60_000);

  it("a Last-Event-ID this gateway does not hold gets a clear 404, not a silent empty stream", async () => {
    const client = new Client({ name: "resumer-2", version: "1" }, { capabilities: { roots: {} }, versionNegotiation: { mode: "legacy" } });
    const transport = new StreamableHTTPClientTransport(new URL(running.url as string));
    await client.connect(transport);
    const response = await fetch(running.url as string, {
      headers: { accept: "text/event-stream", "mcp-session-id": transport.sessionId as string, "mcp-protocol-version": "2025-11-25", "last-event-id": "999999" },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("not held by this gateway replica");
    await client.close();
  }, 60_000);

  it("a stream whose answer went out whole is let go: resuming it gets the 404 of an event not held", async () => {
    const client = new Client({ name: "resumer-3", version: "1" }, { capabilities: { roots: {} }, versionNegotiation: { mode: "legacy" } });
    client.setRequestHandler("roots/list", async () => ({ roots: [] }));
    const transport = new StreamableHTTPClientTransport(new URL(running.url as string));
    await client.connect(transport);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": transport.sessionId as string, "mcp-protocol-version": "2025-11-25" };
    const call = await fetch(running.url as string, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 41, method: "tools/call", params: { name: "echo", arguments: { message: "once" } } }) });
    const body = await call.text();
    expect(body).toContain("Echo: once");
    const ids = [...body.matchAll(/^id: (\S+)$/gm)].map((m) => m[1] as string);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    // The response has ended (its body was read to the end); the gateway lets the stream go as it closes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const resume = await fetch(running.url as string, { headers: { ...headers, accept: "text/event-stream", "last-event-id": ids[0] as string } });
    expect(resume.status).toBe(404);
    expect(await resume.text()).toContain("not held by this gateway replica");
    await client.close();
  }, 60_000);
});
