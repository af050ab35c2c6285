import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { makeHome, ROOT, waitFor, type TestHome } from "./helpers.js";

/**
 * An upstream's elicitation or sampling request, forwarded to the client whose call caused it,
 * ends with that call: when the client cancels the call, or the call ends without an answer (its
 * upstream timed out), the client gets notifications/cancelled for the question and stops asking
 * its person, instead of showing a form for a call that is over.
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

let home: TestHome;
let running: RunningGateway;
let client: Client;
/** The signal of each question the client was asked, in order (aborted when the gateway withdraws it). */
const asked: { what: string; signal: AbortSignal }[] = [];

beforeAll(async () => {
  // slow: callTimeoutMs 1500, for the call that ends by itself while its question is open.
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL] }, slow: { command: process.execPath, args: [FULL], callTimeoutMs: 1500 } } });
  running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
  client = new Client({ name: "forwarded-requests-test", version: "1" }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  // The person never answers: only the gateway's cancellation ends these.
  client.setRequestHandler("elicitation/create", (_request, ctx) => {
    asked.push({ what: "elicit", signal: ctx.mcpReq.signal });
    return new Promise(() => undefined);
  });
  client.setRequestHandler("sampling/createMessage", (_request, ctx) => {
    asked.push({ what: "sample", signal: ctx.mcpReq.signal });
    return new Promise(() => undefined);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await running?.close();
  await home?.cleanup();
});

const script = (server: string, call: string) => ({ name: "run_mcp_script", arguments: { script: `return require("host:mcp-${server}").${call}` } });

describe("gateway: a question forwarded to the client ends with the call that caused it", () => {
  for (const [what, call] of [
    ["elicit", 'test_elicitation({ message: "Your name?" })'],
    ["sample", 'test_sampling({ prompt: "Name a colour." })'],
  ] as const) {
    it(`the client cancels its call: the ${what === "elicit" ? "elicitation" : "sampling request"} it was asked is cancelled too`, async () => {
      const before = asked.length;
      const controller = new AbortController();
      const call_ = client.callTool(script("full", call), { signal: controller.signal });
      await waitFor(() => asked.length > before, 20_000, "the forwarded question");
      const question = asked[before]!;
      expect(question.what).toBe(what);
      controller.abort("the person gave up");
      await expect(call_).rejects.toThrow();
      await waitFor(() => question.signal.aborted, 5_000, "the forwarded question cancelled");
    }, 30_000);
  }

  it("the call ends without an answer (its upstream timed out): the question is cancelled too", async () => {
    const before = asked.length;
    const result = client.callTool(script("slow", 'test_elicitation({ message: "Your name?" })'));
    await waitFor(() => asked.length > before, 20_000, "the forwarded question");
    const question = asked[before]!;
    expect(JSON.stringify(await result)).toMatch(/McpTimeoutError|timed out/);
    await waitFor(() => question.signal.aborted, 5_000, "the forwarded question cancelled");
  }, 30_000);
});
