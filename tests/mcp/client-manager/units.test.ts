import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { decideRoom, minimalChildEnv, StderrRing, clientManagerLimitsSchema } from "../../../src/mcp/client-manager/index.js";
import { callTimeout } from "../../../src/mcp/client-manager/call-budget.js";
import { LineFramer, FrameTooLargeError } from "../../../src/mcp/client-manager/line-framer.js";
import { startTimeout, untilAborted } from "../../../src/mcp/client-manager/abort.js";
import type { McpStdioLaunch } from "../../../src/mcp/types.js";

describe("decideRoom (the live-connection cap)", () => {
  const slot = (live: boolean, connected: boolean, inFlight: number, lastUsed: number) => ({ live, connected, inFlight, lastUsed });

  it("lets a server start while fewer than max others are live", () => {
    const me = slot(true, false, 0, 0);
    expect(decideRoom([me, slot(true, true, 0, 1), slot(false, false, 0, 2)], me, 2)).toEqual({ kind: "room" });
  });

  it("evicts the least recently used connected server with no call in flight", () => {
    const me = slot(true, false, 0, 0);
    const busyOld = slot(true, true, 1, 1);
    const idleOld = slot(true, true, 0, 5);
    const idleNew = slot(true, true, 0, 9);
    expect(decideRoom([me, busyOld, idleNew, idleOld], me, 3)).toEqual({ kind: "evict", victim: idleOld });
  });

  it("never evicts a server held running (a gateway client's resource subscription needs it)", () => {
    const me = slot(true, false, 0, 0);
    const heldOld = { ...slot(true, true, 0, 1), holds: 1 };
    const idleNew = slot(true, true, 0, 9);
    expect(decideRoom([me, heldOld, idleNew], me, 2)).toEqual({ kind: "evict", victim: idleNew });
    expect(decideRoom([me, heldOld], me, 1)).toEqual({ kind: "full" });
  });

  it("never evicts a server that is still opening: waits for it; full only when every live one is connected and busy", () => {
    const me = slot(false, false, 0, 0);
    const opening = slot(true, false, 0, 1);
    expect(decideRoom([me, opening, slot(true, true, 2, 2)], me, 2)).toEqual({ kind: "wait", opening: [opening] });
    expect(decideRoom([me, slot(true, true, 1, 1), slot(true, true, 2, 2)], me, 2)).toEqual({ kind: "full" });
  });

  it("counts a server draining after a config.json edit: waits for its close instead of starting past the cap", () => {
    const me = slot(false, false, 0, 0);
    const draining = { ...slot(true, true, 1, 1), retired: true };
    expect(decideRoom([me, draining], me, 1)).toEqual({ kind: "wait", opening: [draining] });
    expect(decideRoom([me, draining], me, 2)).toEqual({ kind: "room" });
  });
});

describe("minimalChildEnv", () => {
  const launch: McpStdioLaunch = { transport: "stdio", command: "x", args: [], env: { TOKEN: "abc", PATH: "/custom" } };

  it("keeps only allowlisted host variables and lets the launch env win", () => {
    const env = minimalChildEnv(launch, { PATH: "/usr/bin", HOME: "/home/u", AWS_SECRET_ACCESS_KEY: "no", LANG: "C", SHELL: "/bin/bash" });
    expect(env).toEqual({ PATH: "/custom", HOME: "/home/u", LANG: "C", TOKEN: "abc" });
  });

  it("skips exported shell functions", () => {
    expect(minimalChildEnv({ ...launch, env: {} }, { HOME: "() { evil; }", USER: "u" })).toEqual({ USER: "u" });
  });
});

describe("StderrRing", () => {
  it("keeps the last N complete lines, transformed, and says how many were dropped", () => {
    const seen: string[] = [];
    const ring = new StderrRing(2, (line) => seen.push(line));
    ring.write("one\ntw", (l) => l.toUpperCase());
    ring.write("o\nthree\nfour", (l) => l.toUpperCase());
    expect(ring.snapshot()).toEqual(["[1 earlier lines dropped]", "TWO", "THREE"]);
    ring.flush((l) => l.toUpperCase());
    expect(ring.snapshot()).toEqual(["[2 earlier lines dropped]", "THREE", "FOUR"]);
    expect(seen).toEqual(["ONE", "TWO", "THREE", "FOUR"]);
    expect(ring.tail(1)).toBe("FOUR");
  });

  it("bounds the length of a line", () => {
    const ring = new StderrRing(5);
    ring.write(`${"x".repeat(5_000)}\n`, (l) => l);
    expect(ring.snapshot()[0]).toHaveLength(2_000);
  });
});

describe("callTimeout", () => {
  it("is the smallest of the launch timeout, the default and the time left, and says which it was", () => {
    expect(callTimeout(60_000, 30_000, undefined, 0)).toEqual({ ms: 30_000, source: "server" });
    expect(callTimeout(5_000, 30_000, undefined, 0)).toEqual({ ms: 5_000, source: "server" });
    expect(callTimeout(5_000, 30_000, 1_200, 1_000)).toEqual({ ms: 200, source: "caller" });
    expect(callTimeout(5_000, 30_000, 900, 1_000)).toEqual({ ms: -100, source: "caller" });
  });

  it("honours a server's callTimeoutMs over 30 s with the manager's default limits (it was cut to 30 s)", () => {
    const { defaultCallTimeoutMs } = clientManagerLimitsSchema.parse({});
    expect(callTimeout(60_000, defaultCallTimeoutMs, undefined, 0).ms).toBe(60_000);
    expect(callTimeout(3_600_000, defaultCallTimeoutMs, undefined, 0).ms).toBe(3_600_000);
  });
});

describe("LineFramer", () => {
  it("splits JSON-RPC messages across chunks and reports non-JSON-RPC lines", () => {
    const messages: JSONRPCMessage[] = [];
    const garbage: string[] = [];
    const framer = new LineFramer((m) => messages.push(m), (l) => garbage.push(l));
    framer.push(Buffer.from('Welcome!\n{"jsonrpc":"2.0","id":1,"res'));
    framer.push(Buffer.from('ult":{}}\r\n{"not":"rpc"}\n\n'));
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(garbage).toEqual(["Welcome!", '{"not":"rpc"}']);
  });

  it("refuses a line longer than its limit", () => {
    const framer = new LineFramer(() => undefined, () => undefined, 10);
    expect(() => framer.push(Buffer.from("x".repeat(11)))).toThrow(FrameTooLargeError);
  });
});

describe("abort helpers", () => {
  it("startTimeout aborts after ms, says it timed out, and dispose clears it", async () => {
    const scope = startTimeout(10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(scope.signal.aborted).toBe(true);
    expect(scope.timedOut()).toBe(true);
    const parent = new AbortController();
    const child = startTimeout(10_000, parent.signal);
    parent.abort(new Error("run ended"));
    expect(child.signal.aborted).toBe(true);
    expect(child.timedOut()).toBe(false);
    child.dispose();
    scope.dispose();
  });

  it("untilAborted rejects with the signal's reason but leaves the promise running", async () => {
    const controller = new AbortController();
    let resolve: (v: string) => void = () => undefined;
    const work = new Promise<string>((r) => (resolve = r));
    const waiting = untilAborted(work, controller.signal);
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    resolve("done");
    expect(await work).toBe("done");
  });
});

describe("clientManagerLimitsSchema", () => {
  it("defaults to 5 live connections, 3 reconnects and no call-timeout cap below config.json's maximum (one hour)", () => {
    expect(clientManagerLimitsSchema.parse({})).toMatchObject({ maxLiveConnections: 5, maxReconnects: 3, defaultCallTimeoutMs: 3_600_000 });
    expect(() => clientManagerLimitsSchema.parse({ maxLiveConnections: 0 })).toThrow();
  });
});
