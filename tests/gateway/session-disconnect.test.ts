import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { exchange, legacyCall, modernCall, modernHeaders, openLegacySession, TOKEN } from "./fast-lane-support.js";
import { makeHome, ROOT, type TestHome } from "./helpers.js";

const RAW_ECHO = join(ROOT, "tests", "fixtures", "servers", "raw-echo-server.mjs");

/** The text of a JSON-RPC answer's first content item. */
function textOf(message: unknown): string {
  return (message as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text ?? "";
}

/**
 * A 2025-era client whose POST closes before the answer (it gave up, crashed, or its own timeout
 * fired without a notifications/cancelled) must cancel what its request started, as a 2026-07-28
 * client's close does once it has not resumed the stream (Last-Event-ID) within the grace, and
 * an upstream call left running keeps its side effects going. Real gateway in this process, the
 * raw echo server as the upstream (a real process over stdio), real HTTP on 127.0.0.1; calls the
 * fast lane does not take (the SDK path): a script, and a client that declared elicitation.
 */
describe("a 2025 session's request closed by its client", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;

  beforeAll(async () => {
    home = await makeHome({ servers: { raw: { command: process.execPath, args: [RAW_ECHO] } }, gateway: { healthIntervalMs: 0 } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "t", tools: ["raw.echo", "raw.sleep", "raw.cancelled"] });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent", toolset: "t" });
    url = new URL(running.url as string);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function upstreamCancelled(): Promise<number> {
    const answer = await exchange(url, modernHeaders("raw_cancelled"), modernCall("c", "raw_cancelled", {}));
    return (JSON.parse(textOf(answer.message)) as unknown[]).length;
  }

  /** Posts the call in the session, closes the connection once the upstream has it, and waits for the upstream's cancellation. */
  async function closedMidCall(headers: Record<string, string>, name: string, args: unknown): Promise<number> {
    const before = await upstreamCancelled();
    const body = JSON.stringify(legacyCall("gone-1", name, args));
    const req = request(url, { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } });
    req.on("error", () => undefined);
    req.end(body);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    req.destroy();
    const deadline = Date.now() + 10_000;
    while ((await upstreamCancelled()) === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return (await upstreamCancelled()) - before;
  }

  it("run_mcp_script: the script's upstream call is cancelled", async () => {
    const headers = await openLegacySession(url);
    // A first script warms the sandbox, so the second is at its upstream call when the client leaves.
    const warm = await exchange(url, headers, legacyCall("warm", "run_mcp_script", { script: 'return require("host:mcp-raw").echo({ text: "warm" })' }));
    expect(textOf(warm.message)).toContain("warm");
    expect(await closedMidCall(headers, "run_mcp_script", { script: 'return require("host:mcp-raw").sleep({ ms: 10000 })' })).toBe(1);
  });

  it("a direct tool, from a client that declared elicitation: the upstream call is cancelled", async () => {
    const headers = await openLegacySession(url, TOKEN, { elicitation: {} });
    expect(await closedMidCall(headers, "raw_sleep", { ms: 10_000 })).toBe(1);
  });

  it("the session goes on working after the closed request", async () => {
    const headers = await openLegacySession(url, TOKEN, { elicitation: {} });
    expect(await closedMidCall(headers, "raw_sleep", { ms: 10_000 })).toBe(1);
    const answer = await exchange(url, headers, legacyCall("next", "raw_echo", { text: "still here" }));
    expect(textOf(answer.message)).toBe("still here");
  });
});
