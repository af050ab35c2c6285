import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { SessionPool } from "../../src/gateway/session-pool.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { fixtureServer, makeHome, type TestHome } from "./helpers.js";

/**
 * Item 8 of the attack review: 2025-era HTTP sessions were never capped or expired, so bare
 * `initialize` requests grew the gateway's memory without bound (3,000 added ~56 MB). Now each
 * client address holds at most maxSessionsPerClient (least recently used closed first) and idle
 * sessions expire. Real HTTP on 127.0.0.1.
 */
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
};

let running: RunningGateway | undefined;
let home: TestHome | undefined;
afterEach(async () => {
  await running?.close();
  await home?.cleanup();
  running = undefined;
  home = undefined;
});

async function gateway(settings: Record<string, unknown>): Promise<{ url: URL; auth: Record<string, string> }> {
  home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") }, gateway: settings });
  running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, logLevel: "error", pretty: false });
  return { url: new URL(running.url as string), auth: { authorization: `Bearer ${running.token ?? ""}` } };
}

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function initialize(url: URL, auth: Record<string, string>): Promise<string> {
  const response = await fetch(url, { method: "POST", headers: { ...auth, ...JSON_HEADERS }, body: JSON.stringify(INIT) });
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get("mcp-session-id") ?? "";
}

async function listTools(url: URL, auth: Record<string, string>, session: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...auth, ...JSON_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
  });
  await response.text();
  return response.status;
}

async function sessionsOf(url: URL, auth: Record<string, string>): Promise<number> {
  return ((await (await fetch(new URL("/health", url), { headers: auth })).json()) as { sessions: number }).sessions;
}

// What the heap holds after a full collection: garbage not yet collected is not growth.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
function retainedHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe("HTTP sessions are capped per client and expire when idle", () => {
  it("3,000 bare initialize requests leave at most maxSessionsPerClient sessions; the oldest is gone, the newest works", { timeout: 240_000 }, async () => {
    const { url, auth } = await gateway({ maxSessionsPerClient: 100 });
    const first = await initialize(url, auth);
    let last = "";
    const heapBefore = retainedHeap();
    for (let batch = 0; batch < 3_000 / 25; batch++) {
      const ids = await Promise.all(Array.from({ length: 25 }, () => initialize(url, auth)));
      last = ids[ids.length - 1] ?? "";
    }
    expect(await sessionsOf(url, auth)).toBe(100);
    expect(await listTools(url, auth, first)).toBe(404);
    expect(await listTools(url, auth, last)).toBe(200);
    // Bounded, not a figure: 3,000 sessions kept used to add ~56 MB.
    const grownMb = (retainedHeap() - heapBefore) / 1024 / 1024;
    expect(grownMb).toBeLessThan(40);
  });

  it("one client token's sessions never evict another client's from the same address (a balancer's)", { timeout: 60_000 }, async () => {
    const { url, auth } = await gateway({ maxSessionsPerClient: 3 });
    const io = captureIo(home?.env ?? {});
    expect(await runCli(["gateway", "token", "create", "flooder", "--servers", "fixture"], io), io.stderrText()).toBe(0);
    const flooder = { authorization: `Bearer ${io.stdoutText().trim()}` };
    const admin = await initialize(url, auth);
    const flooded: string[] = [];
    for (let i = 0; i < 5; i++) flooded.push(await initialize(url, flooder));
    expect(await listTools(url, auth, admin)).toBe(200);
    // The flooder's own oldest sessions made room for its newest.
    expect(await listTools(url, flooder, flooded[0] ?? "")).toBe(404);
    expect(await listTools(url, flooder, flooded[4] ?? "")).toBe(200);
  });

  it("a session unused for sessionIdleMs is closed: its id answers 404 'initialize again'", { timeout: 60_000 }, async () => {
    const { url, auth } = await gateway({ sessionIdleMs: 300 });
    const session = await initialize(url, auth);
    expect(await listTools(url, auth, session)).toBe(200);
    const deadline = Date.now() + 10_000;
    while ((await sessionsOf(url, auth)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await sessionsOf(url, auth)).toBe(0);
    expect(await listTools(url, auth, session)).toBe(404);
  });
});

describe("SessionPool (the bookkeeping)", () => {
  function pool(limits: { perClient: number; total: number; idleMs: number }) {
    let now = 0;
    const closed: string[] = [];
    const p = new SessionPool<string>(limits, (id, _value, why) => closed.push(`${id}:${why}`), () => now);
    return { p, closed, tick: (ms: number) => (now += ms) };
  }

  it("evicts the least recently used session of the same client past perClient, never another client's", () => {
    const { p, closed, tick } = pool({ perClient: 2, total: 10, idleMs: 1_000 });
    p.add("a1", "A", "a1");
    tick(1);
    p.add("b1", "B", "b1");
    tick(1);
    p.add("a2", "A", "a2");
    tick(1);
    p.use("a1");
    tick(1);
    p.add("a3", "A", "a3");
    expect(closed).toEqual(["a2:evicted"]);
    expect(p.size).toBe(3);
  });

  it("evicts overall past total", () => {
    const { p, closed, tick } = pool({ perClient: 10, total: 2, idleMs: 1_000 });
    p.add("a", "A", "a");
    tick(1);
    p.add("b", "B", "b");
    tick(1);
    p.add("c", "C", "c");
    expect(closed).toEqual(["a:evicted"]);
  });

  it("expires idle sessions, except one holding a notification stream open", () => {
    const { p, closed, tick } = pool({ perClient: 10, total: 10, idleMs: 100 });
    p.add("quiet", "A", "quiet");
    p.add("listening", "A", "listening");
    p.streamOpened("listening");
    tick(50);
    expect(p.expireIdle()).toEqual([]);
    tick(60);
    expect(p.expireIdle()).toEqual(["quiet"]);
    p.streamClosed("listening");
    tick(101);
    expect(p.expireIdle()).toEqual(["listening"]);
    expect(closed).toEqual(["quiet:idle", "listening:idle"]);
  });
});
