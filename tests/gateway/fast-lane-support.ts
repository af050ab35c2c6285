// Raw HTTP exchanges with the gateway for the fast-lane tests: 2026-07-28 stateless requests and
// 2025 sessions, written as the SDK's clients write them, and answers reduced to what a client reads.
import { join } from "node:path";
import { ClientTokenStore, startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { fixtureServer, makeHome, ROOT, type TestHome } from "./helpers.js";

const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

export const TOKEN = "fast-lane-token-0123456789abcdef";
export const MODERN = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "fast-lane-test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * Plain direct calls both paths must answer alike (HTTP and stdio differential tests), on the
 * fixture servers startPair and stdioPair configure. The clients declare no elicitation or sampling:
 * an upstream that asks is declined alike on both paths.
 */
export const DIFFERENTIAL_CASES: ReadonlyArray<readonly [string, string, unknown]> = [
  ["an ok call", "fixture_echo", { text: "héllo ✓ \u2028" }],
  ["structured content", "fixture_echo_json", { value: { a: [1, 2] } }],
  ["every content kind", "fixture_mixed", {}],
  ["a result over the cap", "fixture_huge", { bytes: 3_000_000 }],
  ["an unknown tool", "no_such_tool", {}],
  ["bad arguments (missing)", "fixture_echo", {}],
  ["bad arguments (wrong type)", "fixture_echo", { text: 42 }],
  ["a tool error", "fixture_fail", { message: "boom" }],
  ["no arguments at all", "fixture_mixed", undefined],
  ["an upstream that asks for elicitation", "full_test_elicitation", { message: "name?" }],
  ["an upstream that asks for sampling", "full_test_sampling", { prompt: "hi" }],
];

export interface Exchange {
  readonly status: number;
  /** The JSON-RPC answer (from a JSON body or the SSE stream's message), or the raw text. */
  readonly message: unknown;
  /** Headers a client acts on (the session id only as present or not: each gateway signs its own). */
  readonly headers: Record<string, string | boolean>;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

const BASE = { "content-type": "application/json", accept: "application/json, text/event-stream" };

export function modernHeaders(name: string, token = TOKEN): Record<string, string> {
  return { ...BASE, ...bearer(token), "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name };
}

export function modernCall(id: string | number, name: string, args: unknown, meta: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: { ...ENVELOPE, ...meta } } };
}

export function legacyCall(id: string | number, name: string, args: unknown): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** The answer's JSON-RPC message: a JSON body, or the message with an id on an SSE stream. */
function messageOf(contentType: string, text: string): unknown {
  if (contentType.includes("text/event-stream")) {
    const messages = text
      .split("\n")
      // An empty data line is a resumable stream's priming event (its id only), not a message.
      .filter((line) => line.startsWith("data: ") && line.slice(6).trim() !== "")
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    return messages.find((m) => "id" in m && ("result" in m || "error" in m)) ?? messages;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function exchange(url: URL, headers: Record<string, string>, body: unknown): Promise<Exchange> {
  const response = await fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await response.text();
  const kept: Record<string, string | boolean> = {};
  for (const name of ["www-authenticate", "retry-after"]) {
    const value = response.headers.get(name);
    if (value !== null) kept[name] = value;
  }
  kept["mcp-session-id"] = response.headers.has("mcp-session-id");
  return { status: response.status, message: messageOf(response.headers.get("content-type") ?? "", text), headers: kept };
}

/** A 2025-11-25 session opened with raw requests (initialize, then notifications/initialized); returns its headers. */
export async function openLegacySession(url: URL, token = TOKEN, capabilities: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "fast-lane-test", version: "1" } } };
  const response = await fetch(url, { method: "POST", headers: { ...BASE, ...bearer(token) }, body: JSON.stringify(init) });
  await response.text();
  const session = response.headers.get("mcp-session-id");
  if (response.status !== 200 || session === null) throw new Error(`initialize failed: HTTP ${response.status}`);
  const headers = { ...BASE, ...bearer(token), "mcp-protocol-version": "2025-11-25", "mcp-session-id": session };
  const initialized = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  await initialized.text();
  return headers;
}

/** The gateway's /health as its token holder sees it. */
export async function fastLaneCalls(url: URL): Promise<{ on: boolean; calls: number }> {
  const response = await fetch(new URL("/health", url), { headers: bearer(TOKEN) });
  const health = (await response.json()) as { fastLane: { on: boolean; calls: number } };
  return health.fastLane;
}

export interface Pair {
  readonly home: TestHome;
  /** The fast lane on (the default). */
  readonly fast: RunningGateway;
  /** The same home with MCPVM_GATEWAY_FAST_LANE=0. */
  readonly slow: RunningGateway;
  readonly fastUrl: URL;
  readonly slowUrl: URL;
  /** Named client tokens, shared by both (one home). */
  readonly tokens: { readonly scoped: string; readonly limited: string; readonly revoked: string };
  close(): Promise<void>;
}

/**
 * One config home (fixture servers "fixture" and "other", toolset "t", named client tokens) and two
 * gateways on it, in this process, each with its own upstream processes: the fast lane on and off.
 */
export async function startPair(options: { readonly upstreamArgs?: string } = {}): Promise<Pair> {
  const home = await makeHome({
    servers: { fixture: fixtureServer("/dev/null", options.upstreamArgs ?? ""), other: fixtureServer("/dev/null"), full: { command: process.execPath, args: [FULL] } },
    gateway: { healthIntervalMs: 0 },
  });
  await new ToolsetStore(join(home.dir, "toolsets.json")).save({
    name: "t",
    tools: ["fixture.echo", "fixture.fail", "fixture.echo_json", "fixture.huge", "fixture.mixed", "fixture.sleep", "other.echo", "full.test_elicitation", "full.test_sampling", "full.test_tool_with_logging"],
  });
  const store = new ClientTokenStore(join(home.dir, "gateway-clients.json"));
  const tokens = {
    scoped: (await store.create("scoped", { servers: ["other"] })).token,
    limited: (await store.create("limited", { rate: { count: 2, perMs: 60_000 } })).token,
    revoked: (await store.create("revoked")).token,
  };
  const start = (env: Record<string, string>) => startGateway({ env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent", toolset: "t" });
  const fast = await start(home.env);
  const slow = await start({ ...home.env, MCPVM_GATEWAY_FAST_LANE: "0" });
  return {
    home,
    fast,
    slow,
    fastUrl: new URL(fast.url as string),
    slowUrl: new URL(slow.url as string),
    tokens,
    close: async () => {
      await Promise.all([fast.close(), slow.close()]);
      await home.cleanup();
    },
  };
}

export { ClientTokenStore };
