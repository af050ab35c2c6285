import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/gateway/index.js";
import {
  bearer,
  DIFFERENTIAL_CASES,
  ClientTokenStore,
  exchange,
  fastLaneCalls,
  legacyCall,
  modernCall,
  modernHeaders,
  openLegacySession,
  startPair,
  type Exchange,
  type Pair,
} from "./fast-lane-support.js";

/**
 * The same requests through a gateway with the fast lane and one without it (same home, same
 * upstream fixture): every answer must be the same JSON-RPC message with the same status and the
 * headers a client acts on. The fast lane must also have answered the plain calls itself (its
 * /health counter moves), so the comparison is never between two SDK paths.
 */
describe("fast lane vs SDK path: identical answers", () => {
  let pair: Pair;

  beforeAll(async () => {
    pair = await startPair();
  }, 60_000);
  afterAll(async () => {
    await pair?.close();
  });

  async function both(headers: (which: "fast" | "slow") => Record<string, string> | Promise<Record<string, string>>, body: unknown): Promise<[Exchange, Exchange]> {
    const fast = await exchange(pair.fastUrl, await headers("fast"), body);
    const slow = await exchange(pair.slowUrl, await headers("slow"), body);
    return [fast, slow];
  }

  const modernCases = DIFFERENTIAL_CASES;

  it.each(modernCases)("2026-07-28: %s", async (_what, name, args) => {
    const before = (await fastLaneCalls(pair.fastUrl)).calls;
    const [fast, slow] = await both(() => modernHeaders(name), modernCall(7, name, args));
    expect(fast).toEqual(slow);
    expect((await fastLaneCalls(pair.fastUrl)).calls).toBe(before + 1);
    expect((await fastLaneCalls(pair.slowUrl)).calls).toBe(0);
  });

  it.each(modernCases)("2025-11-25 session: %s", async (_what, name, args) => {
    const sessions = { fast: await openLegacySession(pair.fastUrl), slow: await openLegacySession(pair.slowUrl) };
    const before = (await fastLaneCalls(pair.fastUrl)).calls;
    const [fast, slow] = await both((which) => sessions[which], legacyCall("call-1", name, args));
    expect(fast).toEqual(slow);
    expect(fast.headers["mcp-session-id"]).toBe(true);
    expect((await fastLaneCalls(pair.fastUrl)).calls).toBe(before + 1);
  });

  it("a client whose token allows other servers only: the same refusal", async () => {
    const [fast, slow] = await both(() => modernHeaders("fixture_echo", pair.tokens.scoped), modernCall("s", "fixture_echo", { text: "x" }));
    expect(fast).toEqual(slow);
    expect(JSON.stringify(fast.message)).toContain("no tool");
    const [fastOk, slowOk] = await both(() => modernHeaders("other_echo", pair.tokens.scoped), modernCall("s2", "other_echo", { text: "x" }));
    expect(fastOk).toEqual(slowOk);
    expect(JSON.stringify(fastOk.message)).toContain('"text":"x"');
    // Both gateways share one home: the activity log has the call once from each, attributed to the client.
    const attributed = async (): Promise<number> =>
      (await readFile(join(pair.home.dir, "activity.jsonl"), "utf8").catch(() => ""))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { server: string; tool: string; client?: string; outcome: string })
        .filter((r) => r.server === "other" && r.tool === "echo" && r.client === "scoped" && r.outcome === "ok").length;
    for (let i = 0; i < 50 && (await attributed()) < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await attributed()).toBe(2);
  });

  it("rate-limited: the same 429 with Retry-After once the client's budget is spent", async () => {
    const answers: Array<[Exchange, Exchange]> = [];
    for (let i = 0; i < 3; i += 1) answers.push(await both(() => modernHeaders("fixture_echo", pair.tokens.limited), modernCall(i, "fixture_echo", { text: `r${i}` })));
    for (const [fast, slow] of answers) expect(fast).toEqual(slow);
    expect(answers.map(([fast]) => fast.status)).toEqual([200, 200, 429]);
    expect(answers[2]?.[0]?.headers["retry-after"]).toBeDefined();
  });

  it("a token revoked mid-session: the same 401, in a 2025 session and stateless", async () => {
    const sessions = { fast: await openLegacySession(pair.fastUrl, pair.tokens.revoked), slow: await openLegacySession(pair.slowUrl, pair.tokens.revoked) };
    const [okFast, okSlow] = await both((which) => sessions[which], legacyCall(1, "fixture_echo", { text: "before" }));
    expect(okFast).toEqual(okSlow);
    expect(okFast.status).toBe(200);
    await new ClientTokenStore(join(pair.home.dir, "gateway-clients.json")).revoke("revoked");
    const [fast, slow] = await both((which) => sessions[which], legacyCall(2, "fixture_echo", { text: "after" }));
    expect(fast).toEqual(slow);
    expect(fast.status).toBe(401);
    const [modernFast, modernSlow] = await both(() => modernHeaders("fixture_echo", pair.tokens.revoked), modernCall(3, "fixture_echo", { text: "after" }));
    expect(modernFast).toEqual(modernSlow);
    expect(modernFast.status).toBe(401);
  });

  it("another client's session: the same 404", async () => {
    const sessions = { fast: await openLegacySession(pair.fastUrl), slow: await openLegacySession(pair.slowUrl) };
    const other = (which: "fast" | "slow") => ({ ...sessions[which], ...bearer(pair.tokens.scoped) });
    const [fast, slow] = await both(other, legacyCall(1, "other_echo", { text: "x" }));
    expect(fast).toEqual(slow);
    expect(fast.status).toBe(404);
  });

  it("an oversized body: the same 413", async () => {
    const body = modernCall(1, "fixture_echo", { text: "x".repeat(MAX_BODY_BYTES) });
    const [fast, slow] = await both(() => modernHeaders("fixture_echo"), body);
    expect(fast).toEqual(slow);
    expect(fast.status).toBe(413);
  });

  it.each([
    ["a wrong protocol version header", { ...modernHeaders("fixture_echo"), "mcp-protocol-version": "2099-01-01" }, modernCall(1, "fixture_echo", { text: "x" })],
    ["an envelope naming another version", modernHeaders("fixture_echo"), modernCall(1, "fixture_echo", { text: "x" }, { "io.modelcontextprotocol/protocolVersion": "2025-11-25" })],
    ["a Mcp-Name header naming another tool", modernHeaders("fixture_fail"), modernCall(1, "fixture_echo", { text: "x" })],
    ["no envelope", modernHeaders("fixture_echo"), { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fixture_echo", arguments: { text: "x" } } }],
    ["arguments that are not an object", modernHeaders("fixture_echo"), modernCall(1, "fixture_echo", ["x"])],
    ["a tool name that is not a string", modernHeaders("fixture_echo"), modernCall(1, 42 as unknown as string, {})],
    ["jsonrpc 1.0", modernHeaders("fixture_echo"), { ...modernCall(1, "fixture_echo", { text: "x" }), jsonrpc: "1.0" }],
    ["a null id", modernHeaders("fixture_echo"), { ...modernCall(1, "fixture_echo", { text: "x" }), id: null }],
    ["a batch", modernHeaders("fixture_echo"), [modernCall(1, "fixture_echo", { text: "a" }), modernCall(2, "fixture_echo", { text: "b" })]],
    ["not JSON", modernHeaders("fixture_echo"), "{not json"],
    ["a progress token", modernHeaders("fixture_echo"), modernCall(1, "fixture_echo", { text: "x" }, { progressToken: "p1" })],
    ["a client that can answer elicitation", modernHeaders("fixture_echo"), modernCall(1, "fixture_echo", { text: "x" }, { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } })],
  ])("2026-07-28, %s: the same answer (the SDK path gives it)", async (_what, headers, body) => {
    const before = (await fastLaneCalls(pair.fastUrl)).calls;
    const [fast, slow] = await both(() => headers, body);
    expect(fast).toEqual(slow);
    expect((await fastLaneCalls(pair.fastUrl)).calls).toBe(before);
  });

  it("2025 session with an unsupported protocol version header: the same 400", async () => {
    const sessions = { fast: await openLegacySession(pair.fastUrl), slow: await openLegacySession(pair.slowUrl) };
    const [fast, slow] = await both((which) => ({ ...sessions[which], "mcp-protocol-version": "1999-01-01" }), legacyCall(1, "fixture_echo", { text: "x" }));
    expect(fast).toEqual(slow);
    expect(fast.status).toBe(400);
  });

  it("a 2025 session that set a log level: its calls go to the SDK path, which relates the upstream's log messages to them", async () => {
    const session = await openLegacySession(pair.fastUrl);
    const level = await exchange(pair.fastUrl, session, { jsonrpc: "2.0", id: "lvl", method: "logging/setLevel", params: { level: "debug" } });
    expect(level.status).toBe(200);
    const before = (await fastLaneCalls(pair.fastUrl)).calls;
    const answer = await exchange(pair.fastUrl, session, legacyCall("log-1", "full_test_tool_with_logging", {}));
    expect(answer.message).toMatchObject({ id: "log-1", result: { content: [{ type: "text" }] } });
    expect((await fastLaneCalls(pair.fastUrl)).calls).toBe(before);
  });
});
