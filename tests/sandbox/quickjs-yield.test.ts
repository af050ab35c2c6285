import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import { newInlineInstance } from "../../src/sandbox/engines/quickjs-inline-adapter.js";
import { loadInlineAssets } from "../../src/sandbox/engines/quickjs-inline-assets.js";
import type { HostModules, RunResult, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, expectHealthy, run, valueOf } from "./conformance/helpers.js";

/**
 * Time slices of the in-thread engine (src/sandbox/engines/quickjs-yield.ts): a computing guest
 * yields the main thread between slices, so this process serves timers and HTTP meanwhile, and a
 * cancel ends the guest at once; a suspension at every interrupt check (slice 0.001 ms) leaves what
 * the guest computes exactly what Node computes from the same code.
 */
describe("quickjs-inline time slices", () => {
  let engine: SandboxEngine;
  let everyCheck: SandboxEngine;
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    engine = await createQuickJsInlineEngine();
    // Separate instances (another memory cap) whose guests yield at every interrupt check.
    everyCheck = await createQuickJsInlineEngine({ sliceMs: 0.001, maxWasmMemoryBytes: 256 * 1024 * 1024 });
    server = createServer((_request, response) => response.end("served"));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await engine.dispose();
    await everyCheck.dispose();
    server.close();
  });

  const LONG = { cpuMs: 60_000, wallMs: 60_000 };

  /** Resolves with the body and when it arrived, for a GET to this process's own server. */
  const get = (): Promise<{ readonly body: string; readonly at: number }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/" }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ body, at: performance.now() }));
      });
      req.on("error", reject);
      req.end();
    });

  it("serves a timer and an HTTP request on this thread while a guest computes, and a cancel ends the guest", async () => {
    const controller = new AbortController();
    const startedAt = performance.now();
    const guest = run(engine, "while (true) {}", { limits: LONG, signal: controller.signal });
    const timer = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), 50));
    const [timerAt, served] = await Promise.all([timer, get()]);
    controller.abort();
    const result = await guest;
    const endedAt = performance.now();
    expect(served.body).toBe("served");
    errorOf(result, "CANCELLED");
    // Both came while the guest was computing: it ended only when cancelled, after them.
    expect(timerAt).toBeLessThan(endedAt);
    expect(served.at).toBeLessThan(endedAt);
    // Far below the run's 60 s limits (no tighter timing in a test: speed is the bench's).
    expect(endedAt - startedAt).toBeLessThan(20_000);
    await expectHealthy(engine);
  });

  // 3 s of CPU on one thread: on a loaded machine the clock sees many times that (the limit counts CPU).
  it("ends a computing guest at its CPU limit counting only its own compute, while another computes beside it", { timeout: 150_000 }, async () => {
    const loop = "let n = 0; while (true) { n++; }";
    const [first, second] = await Promise.all([run(engine, loop, { limits: { cpuMs: 1_500, wallMs: 140_000 } }), run(engine, loop, { limits: { cpuMs: 1_500, wallMs: 140_000 } })]);
    for (const result of [first, second]) {
      errorOf(result, "CPU_LIMIT");
      // The slices of the other run are not counted: each reports its own 1.5 s, not both runs' 3 s.
      expect(result.stats.cpuMs).toBeGreaterThanOrEqual(1_500);
      expect(result.stats.cpuMs).toBeLessThan(2_500);
    }
    // Two guests took turns on one thread: each run's wall time covers both runs' compute.
    expect(Math.min(first.stats.wallMs, second.stats.wallMs)).toBeGreaterThan(2_000);
  });

  it("ends a guest at its wall limit while it computes between slices", async () => {
    const result = await run(engine, "while (true) {}", { limits: { cpuMs: 60_000, wallMs: 1_000 } });
    errorOf(result, "WALL_LIMIT");
    expect(result.stats.wallMs).toBeLessThan(20_000);
  });

  it("ends a computing guest when the engine is disposed", async () => {
    const own = await createQuickJsInlineEngine();
    const guest = run(own, "while (true) {}", { limits: LONG });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await own.dispose();
    errorOf(await guest, "CANCELLED");
  });

  it("computes what Node computes with a suspension at every interrupt check", async () => {
    // Deep recursion, closures, generators, try/finally, sorting with a comparator, string and regex
    // work, a host call in the middle: every frame's locals survive each unwind and rewind.
    const program = `
      function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
      function* walk(n) { for (let i = 0; i < n; i++) { try { yield i * 3; } finally { walked++; } } }
      let walked = 0;
      const adders = Array.from({ length: 200 }, (_, i) => (x) => x + i);
      let folded = 0;
      for (let round = 0; round < 300; round++) for (const add of adders) folded = add(folded) % 1000003;
      const gen = [...walk(20000)].reduce((a, b) => (a + b) % 999983, 0);
      const sorted = Array.from({ length: 20000 }, (_, i) => (i * 7919) % 20011).sort((a, b) => b - a).slice(0, 5);
      let text = "";
      for (let i = 0; i < 20000; i++) text += String.fromCharCode(97 + (i % 26));
      const matches = (text.match(/abc/g) || []).length;
      const deep = (function down(d) { return d === 0 ? 0 : 1 + down(d - 1); })(400);
      return [fib(24), walked, folded, gen, sorted, matches, deep];`;
    const expected = new Function(program)() as unknown;
    // Each guest marks where its compute starts and ends with a host call: the event loop turns between
    // the two marks only if a computing guest is suspended (counted: 63 turns here, 0 with slices off).
    let computing = 0;
    const modules: HostModules = { m: { id: (args) => args[0], mark: (args) => void (computing += Number(args[0])) } };
    const guestCode = `require('host:m').mark(1);\n${program.replace("return [", "require('host:m').mark(-1);\n const mid = require('host:m').id(7);\n return [mid, ")}`;
    let turns = 0;
    let turning = true;
    const turn = (): void => {
      if (computing > 0) turns++;
      if (turning) setImmediate(turn);
    };
    turn();
    const results: RunResult[] = await Promise.all([run(everyCheck, guestCode, { modules, limits: LONG }), run(everyCheck, guestCode, { modules, limits: LONG })]);
    turning = false;
    for (const result of results) expect(valueOf(result)).toEqual([7, ...(expected as unknown[])]);
    expect(turns).toBeGreaterThan(30);
    await expectHealthy(everyCheck);
  });

  it("does not suspend a guest whose heap has no room left for the saved stack", async () => {
    // Asyncify mallocs the buffer a suspended stack is saved into, unchecked: in a heap at its run's
    // ceiling (no growth allowed here) that malloc fails, and the stack would be written at address 0.
    const instance = await newInlineInstance(await loadInlineAssets(), 64 * 1024 * 1024);
    const runtime = instance.newRuntime();
    const context = runtime.newContext();
    try {
      instance.setStackLimit(runtime, 256 * 1024);
      let yields = 0;
      let filled = false;
      instance.setInterruptHandler(runtime, (mayYield) => {
        if (!filled || !mayYield()) return false;
        yields++;
        return new Promise((resolve) => setImmediate(() => resolve(false)));
      });
      instance.limitHeadroom(instance.wasmMemoryBytes());
      const kept = await instance.evalCode(context, "globalThis.keep = []; try { for (;;) keep.push(new Array(4096).fill(1)); } catch {} keep.length", "fill.js");
      if (kept.error !== undefined) expect.fail(JSON.stringify(context.dump(kept.error)));
      expect(context.getNumber(kept.value)).toBeGreaterThan(0);
      kept.value.dispose();
      expect(instance.overBudget()).toBe(true);
      // The heap is full: a few KB freed for the loop's own needs, far less than the save buffer.
      filled = true;
      const spin = await instance.evalCode(context, "keep.pop(); let s = 0; for (let i = 0; i < 300000; i++) s = (s + i) % 1000; s", "spin.js");
      if (spin.error !== undefined) expect.fail(JSON.stringify(context.dump(spin.error)));
      expect(context.getNumber(spin.value)).toBe(0);
      spin.value.dispose();
      expect(yields).toBe(0);
    } finally {
      instance.limitHeadroom(undefined);
      context.dispose();
      runtime.dispose();
    }
  });

  it("never suspends guest code that runs below a host function (mayYield() answers false there)", async () => {
    const instance = await newInlineInstance(await loadInlineAssets(), 64 * 1024 * 1024);
    const runtime = instance.newRuntime();
    const context = runtime.newContext();
    try {
      // The host function converts its argument to a string: QuickJS runs the guest's toString, and
      // its loop checks for interrupts, below this JS frame.
      const host = context.newFunction("host", (value) => context.newString(`${context.getString(value)}!`));
      context.setProp(context.global, "host", host);
      host.dispose();
      const asked = { mayYield: 0, mayNot: 0 };
      instance.setInterruptHandler(runtime, (mayYield) => {
        if (!mayYield()) {
          asked.mayNot++;
          return false;
        }
        asked.mayYield++;
        return new Promise((resolve) => setImmediate(() => resolve(false)));
      });
      const code = `
        const spin = (n) => { let s = 0; for (let i = 0; i < n; i++) s = (s + i) % 1000; return s; };
        const outside = spin(3e5);
        host({ toString() { return "inside " + spin(3e5); } }) + " " + outside;`;
      const result = await instance.evalCode(context, code, "below-host.js");
      if (result.error !== undefined) expect.fail(JSON.stringify(context.dump(result.error)));
      expect(context.getString(result.value)).toBe("inside 0! 0");
      result.value.dispose();
      expect(asked.mayYield).toBeGreaterThan(0);
      expect(asked.mayNot).toBeGreaterThan(0);
    } finally {
      context.dispose();
      runtime.dispose();
    }
  });
});
