import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientTokenStore, MAX_BODY_BYTES, startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { exchange, fastLaneCalls, legacyCall, modernCall, modernHeaders, openLegacySession, TOKEN } from "./fast-lane-support.js";
import { makeHome, ROOT, type TestHome } from "./helpers.js";

const RAW_ECHO = join(ROOT, "tests", "fixtures", "servers", "raw-echo-server.mjs");

/** The text of a JSON-RPC answer's first content item. */
function textOf(message: unknown): string {
  return (message as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text ?? "";
}

/**
 * The fast lane under load and bad input (issue 14 "Load" and "Bad input"): a real gateway in this
 * process, the raw echo server as its upstream (a real process over stdio), real HTTP on 127.0.0.1.
 */
describe("fast lane: many clients, bad input, cancellation", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  const tokens = { flood: "", victim: "", revoked: "" };

  beforeAll(async () => {
    home = await makeHome({
      servers: { raw: { command: process.execPath, args: [RAW_ECHO], env: { MCPVM_RAW_ECHO_DELAY_MS: "2" } } },
      gateway: { healthIntervalMs: 0 },
    });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "t", tools: ["raw.echo", "raw.sleep", "raw.cancelled"] });
    const store = new ClientTokenStore(join(home.dir, "gateway-clients.json"));
    // 20 calls a minute: one refill every 3 s, so the count of 429s hardly depends on how fast the machine serves the flood.
    tokens.flood = (await store.create("flood", { rate: { count: 20, perMs: 60_000 } })).token;
    tokens.victim = (await store.create("victim", { rate: { count: 1_000, perMs: 1_000 } })).token;
    tokens.revoked = (await store.create("revoked")).token;
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent", toolset: "t" });
    url = new URL(running.url as string);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("40 stateless clients and 10 2025 sessions at once: every answer is its own caller's, none lost, all on the fast lane", { timeout: 120_000 }, async () => {
    const before = (await fastLaneCalls(url)).calls;
    const sessions = await Promise.all(Array.from({ length: 10 }, () => openLegacySession(url)));
    const wrong: string[] = [];
    const modern = Array.from({ length: 40 }, async (_, c) => {
      for (let i = 0; i < 25; i += 1) {
        const text = `m${c}-${i}`;
        const answer = await exchange(url, modernHeaders("raw_echo"), modernCall(`${c}:${i}`, "raw_echo", { text }));
        if (answer.status !== 200 || textOf(answer.message) !== text || (answer.message as { id?: unknown }).id !== `${c}:${i}`) wrong.push(text);
      }
    });
    const legacy = sessions.map(async (headers, c) => {
      for (let i = 0; i < 25; i += 1) {
        const text = `l${c}-${i}`;
        const answer = await exchange(url, headers, legacyCall(i, "raw_echo", { text }));
        if (answer.status !== 200 || textOf(answer.message) !== text || (answer.message as { id?: unknown }).id !== i) wrong.push(text);
      }
    });
    await Promise.all([...modern, ...legacy]);
    expect(wrong).toEqual([]);
    expect((await fastLaneCalls(url)).calls - before).toBe(40 * 25 + 10 * 25);
  });

  it("an oversized body is refused with 413 while another client's call in flight completes", async () => {
    const inFlight = exchange(url, modernHeaders("raw_sleep"), modernCall(1, "raw_sleep", { ms: 300 }));
    const big = await exchange(url, modernHeaders("raw_echo"), modernCall(2, "raw_echo", { text: "x".repeat(MAX_BODY_BYTES) }));
    expect(big.status).toBe(413);
    expect(big.message).toMatchObject({ error: { code: -32000 } });
    expect(textOf((await inFlight).message)).toBe("slept");
  });

  it.each([
    ["no jsonrpc member", { id: 1, method: "tools/call", params: { name: "raw_echo", arguments: { text: "x" } } }],
    ["an object as id", { jsonrpc: "2.0", id: { a: 1 }, method: "tools/call", params: { name: "raw_echo", arguments: { text: "x" } } }],
    ["params not an object", { jsonrpc: "2.0", id: 1, method: "tools/call", params: "raw_echo" }],
    ["a batch", [modernCall(1, "raw_echo", { text: "a" }), modernCall(2, "raw_echo", { text: "b" })]],
  ])("malformed JSON-RPC (%s) is refused with a 4xx JSON-RPC error, not answered by the fast lane", async (_what, body) => {
    const before = (await fastLaneCalls(url)).calls;
    const answer = await exchange(url, modernHeaders("raw_echo"), body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(typeof (answer.message as { error?: { code?: unknown } }).error?.code).toBe("number");
    expect((await fastLaneCalls(url)).calls).toBe(before);
  });

  it("a token revoked mid-session: the session's next call is 401, stateless too", async () => {
    const headers = await openLegacySession(url, tokens.revoked);
    const ok = await exchange(url, headers, legacyCall(1, "raw_echo", { text: "before" }));
    expect(textOf(ok.message)).toBe("before");
    await new ClientTokenStore(join(home.dir, "gateway-clients.json")).revoke("revoked");
    const refused = await exchange(url, headers, legacyCall(2, "raw_echo", { text: "after" }));
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toMatch(/^Bearer /);
    expect((await exchange(url, modernHeaders("raw_echo", tokens.revoked), modernCall(3, "raw_echo", { text: "after" }))).status).toBe(401);
  });

  it("a flood from one client gets 429s with Retry-After; another client is served throughout", { timeout: 60_000 }, async () => {
    const flood = Array.from({ length: 150 }, (_, i) => exchange(url, modernHeaders("raw_echo", tokens.flood), modernCall(i, "raw_echo", { text: `f${i}` })));
    const victim = (async () => {
      const texts: string[] = [];
      for (let i = 0; i < 30; i += 1) texts.push(textOf((await exchange(url, modernHeaders("raw_echo", tokens.victim), modernCall(i, "raw_echo", { text: `v${i}` }))).message));
      return texts;
    })();
    const answers = await Promise.all(flood);
    const limited = answers.filter((a) => a.status === 429);
    // 130 when the flood takes under 3 s; a machine loaded enough to stretch it to 15 s still refuses 125.
    expect(limited.length).toBeGreaterThanOrEqual(125);
    expect(limited[0]?.headers["retry-after"]).toBeDefined();
    for (const served of answers.filter((a) => a.status === 200)) expect(textOf(served.message)).toMatch(/^f\d+$/);
    expect(await victim).toEqual(Array.from({ length: 30 }, (_, i) => `v${i}`));
  });

  async function upstreamCancelled(): Promise<string[]> {
    const answer = await exchange(url, modernHeaders("raw_cancelled"), modernCall("c", "raw_cancelled", {}));
    return JSON.parse(textOf(answer.message)) as string[];
  }

  it("a 2025 session's notifications/cancelled reaches the upstream call the fast lane made", async () => {
    const headers = await openLegacySession(url);
    const before = (await upstreamCancelled()).length;
    const call = exchange(url, headers, legacyCall("slow-1", "raw_sleep", { ms: 10_000 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const notice = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "slow-1", reason: "changed my mind" } }) });
    expect(notice.status).toBe(202);
    await call;
    const after = await upstreamCancelled();
    expect(after.length).toBe(before + 1);
  });

  it("a 2026-07-28 client that closes its request cancels the upstream call", async () => {
    const before = (await upstreamCancelled()).length;
    const body = JSON.stringify(modernCall("slow-2", "raw_sleep", { ms: 10_000 }));
    const req = request(url, { method: "POST", headers: { ...modernHeaders("raw_sleep"), "content-length": Buffer.byteLength(body) } });
    req.on("error", () => undefined);
    req.end(body);
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.destroy();
    const deadline = Date.now() + 5_000;
    while ((await upstreamCancelled()).length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await upstreamCancelled()).length).toBe(before + 1);
  });
});
