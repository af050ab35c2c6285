import { describe, expect, it } from "vitest";
import type { ServerState } from "../../src/mcp/client-manager/index.js";
import { backoffDelay, HealthMonitor } from "../../src/gateway/index.js";
import { silentLogger } from "../../src/logging/logger.js";

const settings = { healthIntervalMs: 0, healthTimeoutMs: 100, reconnectBaseMs: 1_000, reconnectMaxMs: 8_000 };

/** A pretend set of upstream servers whose states the test drives, and a clock it moves. */
function world(initial: Record<string, ServerState>) {
  const state = { ...initial };
  let now = 0;
  const events: string[] = [];
  const failing = new Set<string>();
  const hung = new Set<string>();
  const monitor = new HealthMonitor({
    servers: () => Object.keys(state),
    state: (name) => state[name] ?? "idle",
    ping: async (name) => {
      events.push(`ping ${name}`);
      if (hung.has(name)) throw new Error("ping timed out");
      return true;
    },
    close: async (name) => {
      events.push(`close ${name}`);
      state[name] = "closed";
    },
    reconnect: async (name) => {
      events.push(`reconnect ${name}`);
      if (failing.has(name)) throw new Error("spawn failed");
      state[name] = "connected";
    },
    onGaveUp: (name) => events.push(`gave-up ${name}`),
    logger: silentLogger(),
    settings,
    now: () => now,
  });
  return { state, events, failing, hung, monitor, advance: (ms: number) => (now += ms) };
}

describe("gateway health monitor", () => {
  it("backs off exponentially up to the maximum", () => {
    expect([0, 1, 2, 3, 4, 5, 40].map((n) => backoffDelay(n, 1_000, 8_000))).toEqual([0, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it("pings connected servers and leaves idle ones alone (they start on next use)", async () => {
    const w = world({ a: "connected", b: "idle" });
    await w.monitor.check();
    expect(w.events).toEqual(["ping a"]);
  });

  it("restarts a server that stops answering pings", async () => {
    const w = world({ a: "connected" });
    w.hung.add("a");
    await w.monitor.check();
    expect(w.events).toEqual(["ping a", "close a", "reconnect a"]);
    expect(w.state.a).toBe("connected");
  });

  it("reconnects a server that died, with backoff between failed attempts, and reports each failure", async () => {
    const w = world({ a: "error" });
    w.failing.add("a");
    await w.monitor.check();
    expect(w.events).toEqual(["reconnect a", "gave-up a"]);
    w.advance(500);
    await w.monitor.check();
    expect(w.events).toHaveLength(2);
    w.advance(600);
    await w.monitor.check();
    expect(w.events.slice(2)).toEqual(["reconnect a", "gave-up a"]);
    expect(w.monitor.pending().get("a")).toBe(2);
    w.failing.delete("a");
    w.advance(1_900);
    await w.monitor.check();
    expect(w.events).toHaveLength(4);
    w.advance(100);
    await w.monitor.check();
    expect(w.events.at(-1)).toBe("reconnect a");
    expect(w.state.a).toBe("connected");
    expect(w.monitor.pending().size).toBe(0);
  });
});

describe("gateway health monitor: a retry that comes due while another connect is under way", () => {
  it("waits for that connect and tries again if it failed, instead of dropping the retry until the next round", async () => {
    const state: Record<string, ServerState> = { a: "error" };
    let attempts = 0;
    let failing = true;
    const monitor = new HealthMonitor({
      servers: () => ["a"],
      state: (name) => state[name] ?? "idle",
      ping: async () => true,
      close: async () => undefined,
      reconnect: async () => {
        attempts += 1;
        if (failing) throw new Error("connection refused");
        state.a = "connected";
      },
      onGaveUp: () => undefined,
      logger: silentLogger(),
      // A round an hour away: only the backoff's retry can bring the server back in this test.
      settings: { healthIntervalMs: 3_600_000, healthTimeoutMs: 100, reconnectBaseMs: 20, reconnectMaxMs: 20 },
    });
    monitor.start();
    try {
      await monitor.check();
      expect(attempts).toBe(1);
      // A call starts its own connect before the retry is due; the retry finds it connecting.
      state.a = "connecting";
      await new Promise((resolve) => setTimeout(resolve, 60));
      // That connect fails; the upstream is back by now.
      state.a = "error";
      failing = false;
      const deadline = Date.now() + 2_000;
      while ((state.a as ServerState) !== "connected" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(state.a).toBe("connected");
      expect(attempts).toBe(2);
    } finally {
      monitor.stop();
    }
  });
});

describe("gateway health monitor: the backoff's timer and a coarse clock", () => {
  it("tries again when the retry's timer fires, even if the clock does not yet read the attempt's time", async () => {
    const state: Record<string, ServerState> = { a: "error" };
    let attempts = 0;
    const monitor = new HealthMonitor({
      servers: () => ["a"],
      state: (name) => state[name] ?? "idle",
      ping: async () => true,
      close: async () => undefined,
      reconnect: async () => {
        attempts += 1;
        if (attempts < 6) throw new Error("connection refused");
        state.a = "connected";
      },
      onGaveUp: () => undefined,
      logger: silentLogger(),
      settings: { healthIntervalMs: 3_600_000, healthTimeoutMs: 100, reconnectBaseMs: 20, reconnectMaxMs: 20 },
      // A clock that moves in 50 ms steps: a timer set for 20 ms usually fires before it reads 20 ms later.
      now: () => Math.floor(Date.now() / 50) * 50,
    });
    monitor.start();
    try {
      await monitor.check();
      const deadline = Date.now() + 2_000;
      while ((state.a as ServerState) !== "connected" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(state.a).toBe("connected");
      expect(attempts).toBe(6);
    } finally {
      monitor.stop();
    }
  });
});
