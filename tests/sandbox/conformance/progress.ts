import { describe, expect, it } from "vitest";
import type { HostCallContext, HostModule, HostModules, LazyHostModule } from "../../../src/sandbox/types.js";
import { expectHealthy, run, sleep, valueOf, type EngineRef } from "./helpers.js";

/**
 * A host function's events (HostCallContext.notify) reach the guest's `{ onProgress }` callback, in
 * order and before the call returns, on every engine. On QuickJS they arrive while the guest still
 * waits inside the call (proven by a listener whose own host call the host function waits for);
 * an engine that cannot run guest code while it waits delivers them with the reply.
 */
function progressModules(seen: { notified: boolean | undefined; calls: number }, handshake: { resolve?: () => void }): HostModules {
  const functions: HostModule = {
    // Three steps; with `wait`, each next step waits until the guest's listener has reported the previous one.
    steps: async (args, context: HostCallContext) => {
      seen.calls += 1;
      seen.notified = context.notify !== undefined;
      const options = (args[0] ?? {}) as { wait?: boolean };
      for (const step of [1, 2, 3]) {
        const heard = new Promise<void>((resolve) => (handshake.resolve = resolve));
        context.notify?.({ progress: step, total: 3, message: `step ${step}` });
        if (options.wait === true) await Promise.race([heard, sleep(4_000, context.signal)]);
        else await sleep(5, context.signal);
      }
      return { done: true, args: args.length };
    },
    // Called by the guest's listener: tells the host function the event was seen in the guest.
    heard: () => {
      handshake.resolve?.();
      return true;
    },
  };
  const module: LazyHostModule = { lazy: true, load: async () => functions, label: { title: "progress", member: "function", progress: true } };
  return { progress: module };
}

export function progressTests(engine: EngineRef): void {
  describe("progress events of a host call ({ onProgress })", () => {
    it("delivers every event to the callback, in order, before the call returns; the option never crosses", async () => {
      const seen = { notified: undefined as boolean | undefined, calls: 0 };
      const modules = progressModules(seen, {});
      const result = await run(
        engine(),
        `const p = require("host:progress");
         const events = [];
         const value = p.steps({ a: 1 }, { onProgress: (e) => events.push(e) });
         events.push("returned");
         const bare = p.steps({ onProgress: (e) => events.push(e.progress) });
         return { value, bare, events };`,
        { modules },
      );
      expect(valueOf(result)).toEqual({
        value: { done: true, args: 1 },
        bare: { done: true, args: 1 },
        events: [
          { progress: 1, total: 3, message: "step 1" },
          { progress: 2, total: 3, message: "step 2" },
          { progress: 3, total: 3, message: "step 3" },
          "returned",
          1,
          2,
          3,
        ],
      });
      expect(seen).toEqual({ notified: true, calls: 2 });
    });

    it("gives the host function no notify when the guest passed no callback", async () => {
      const seen = { notified: undefined as boolean | undefined, calls: 0 };
      const result = await run(engine(), 'return require("host:progress").steps({});', { modules: progressModules(seen, {}) });
      expect(valueOf(result)).toEqual({ done: true, args: 1 });
      expect(seen.notified).toBe(false);
    });

    it("works for async calls (__mcpvm.callAsync) too", async () => {
      const seen = { notified: undefined as boolean | undefined, calls: 0 };
      const result = await run(
        engine(),
        `const events = [];
         const [a, b] = await Promise.all([
           __mcpvm.callAsync("progress", "steps", [{}, { onProgress: (e) => events.push("a" + e.progress) }]),
           __mcpvm.callAsync("progress", "steps", [{}, { onProgress: (e) => events.push("b" + e.progress) }]),
         ]);
         return { a, b, a123: events.filter((e) => e[0] === "a"), b123: events.filter((e) => e[0] === "b") };`,
        { modules: progressModules(seen, {}) },
      );
      expect(valueOf(result)).toEqual({ a: { done: true, args: 1 }, b: { done: true, args: 1 }, a123: ["a1", "a2", "a3"], b123: ["b1", "b2", "b3"] });
    });

    it("a callback that throws is reported in the logs and the call still returns", async () => {
      const seen = { notified: undefined as boolean | undefined, calls: 0 };
      const result = await run(
        engine(),
        `let n = 0;
         const value = require("host:progress").steps({}, { onProgress: () => { n += 1; throw new Error("callback broke"); } });
         return { value, n };`,
        { modules: progressModules(seen, {}) },
      );
      expect(valueOf(result)).toEqual({ value: { done: true, args: 1 }, n: 3 });
      const errors = result.logs.filter((entry) => entry.level === "error").map((entry) => entry.message);
      expect(errors).toHaveLength(3);
      expect(errors[0]).toMatch(/Uncaught in onProgress of host:progress: .*callback broke/);
      await expectHealthy(engine());
    });

    it("on QuickJS's sync build the callback runs while the guest still waits inside the call", async (context) => {
      // Asyncify engines (in-thread, shared workers) hold a suspended guest's stack: its events come with the reply.
      if (engine().liveSyncProgress !== true) {
        context.skip();
        return;
      }
      const seen = { notified: undefined as boolean | undefined, calls: 0 };
      // Each step waits for the listener's own host call: without live delivery this would hang until the 4 s fallback.
      const started = Date.now();
      const result = await run(
        engine(),
        `const p = require("host:progress");
         const events = [];
         const value = p.steps({ wait: true }, { onProgress: (e) => { events.push(e.progress); p.heard(); } });
         return { value, events };`,
        { modules: progressModules(seen, {}) },
      );
      expect(valueOf(result)).toEqual({ value: { done: true, args: 1 }, events: [1, 2, 3] });
      // Generous: the fallback would take 12 s.
      expect(Date.now() - started).toBeLessThan(8_000);
    });
  });
}
