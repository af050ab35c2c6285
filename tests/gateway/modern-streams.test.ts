import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { bearer, modernCall, modernHeaders, TOKEN } from "./fast-lane-support.js";
import { everythingServer, firstText, makeHome, type TestHome } from "./helpers.js";

/**
 * The 2026-07-28 revision removed stream resumability (changelog, major change 9, SEP-2575: no
 * Last-Event-ID, no SSE event ids; "a broken response stream loses the in-flight request; clients
 * MUST re-issue it as a new request with a new request ID"). The gateway's 2026-07-28 streams carry
 * no event ids, so the SDK client does not try to resume one, and a call re-issued after a drop is
 * answered. Real gateway, server-everything upstream, real HTTP on 127.0.0.1; the drop is the
 * client's fetch cancelling the response body, which closes the socket.
 */
describe("2026-07-28 streams (not resumable by that protocol version)", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false, expose: "everything" });
    url = new URL(running.url as string);
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  const LONG = "trigger-long-running-operation";

  it("a call with progress is streamed without event ids", async () => {
    const response = await fetch(url, { method: "POST", headers: modernHeaders(LONG), body: JSON.stringify(modernCall(7, LONG, { duration: 1, steps: 2 }, { progressToken: "p7" })) });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const body = await response.text();
    expect(body).toContain("notifications/progress");
    expect(body).toContain("Long running operation completed");
    expect(body).not.toMatch(/^id:/m);
  }, 60_000);

  it("the SDK client, its stream broken mid-call, does not resume: the call fails and is answered when re-issued", async () => {
    let dropped = false;
    const resumedWith: string[] = [];
    const calls: unknown[] = [];
    const dropping: typeof fetch = async (input, init) => {
      const resume = new Headers(init?.headers).get("last-event-id");
      if (resume !== null) resumedWith.push(resume);
      const text = String(init?.body ?? "");
      const isCall = init?.method === "POST" && text.includes(LONG);
      if (isCall) calls.push((JSON.parse(text) as { id: unknown }).id);
      const response = await fetch(input, init);
      if (!isCall || dropped || response.body === null || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let seen = "";
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          seen += decoder.decode(value, { stream: true });
          controller.enqueue(value);
          if (seen.includes("notifications/progress")) {
            dropped = true;
            await reader.cancel();
            controller.error(new TypeError("connection reset (test)"));
          }
        },
        cancel: () => reader.cancel(),
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = new Client({ name: "modern-dropper", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: dropping, requestInit: { headers: bearer(TOKEN) } }));
    const args = { name: LONG, arguments: { duration: 1, steps: 2 } };
    // The SDK client (2.x) notices a broken stream of an ordinary request only at the request's timeout.
    const first = await client.callTool(args, { onprogress: () => undefined, timeout: 5_000 }).then(
      () => "answered",
      (error: unknown) => `failed: ${String(error)}`,
    );
    expect(dropped).toBe(true);
    expect(first).toMatch(/^failed: .*timed out/);
    expect(resumedWith).toEqual([]);
    const again = await client.callTool(args, { onprogress: () => undefined });
    expect(firstText(again)).toContain("Long running operation completed");
    expect(new Set(calls).size).toBe(2);
    await client.close();
  }, 60_000);
});
