import { describe, expect, it } from "vitest";
import type { HostModules, SandboxErrorCode } from "../../../src/sandbox/types.js";
import { errorOf, expectHealthy, expectNoHostTraces, run, valueOf, type EngineRef } from "./helpers.js";

/** Every value the host received is plain data: no functions, no prototypes but Object/Array, no accessors. */
function expectPlainData(value: unknown): void {
  if (value === null || ["string", "number", "boolean"].includes(typeof value) || value instanceof Uint8Array) return;
  expect(typeof value).toBe("object");
  const proto = Object.getPrototypeOf(value);
  expect([Object.prototype, Array.prototype]).toContain(proto);
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    expect(["__proto__", "constructor", "prototype"]).not.toContain(key);
    expect(descriptor.get).toBeUndefined();
    expectPlainData(descriptor.value);
  }
}

export function escapeTests(engine: EngineRef): void {
  describe("escapes", () => {
    it.each([
      ["an arrow function's constructor", '(() => {}).constructor("return process")()'],
      ["this.constructor.constructor", 'this.constructor.constructor("return process")()'],
      ["an async function's constructor", 'await (async () => {}).constructor("return process")()'],
    ])("reaches no process through %s", async (_label, expression) => {
      const error = errorOf(await run(engine(), `return ${expression};`), "GUEST_ERROR");
      expect(error.name).toBe("ReferenceError");
      expect(error.message).toContain("process");
      await expectHealthy(engine());
    });

    it("finds no host objects on the global object or through Function", async () => {
      const code = `const probe = (name) => [typeof globalThis[name], Function("return typeof " + name)()];
        const names = ["process", "Buffer", "fetch", "XMLHttpRequest", "WebAssembly", "setTimeout", "global", "std", "os", "Deno", "Bun", "module", "exports", "__filename"];
        return { probes: names.map(probe), globals: Object.getOwnPropertyNames(globalThis), require: typeof require };`;
      const value = valueOf(await run(engine(), code)) as { probes: string[][]; globals: string[]; require: string };
      for (const probe of value.probes) expect(probe).toEqual(["undefined", "undefined"]);
      expect(value.require).toBe("function");
      expect(value.globals).not.toContain("process");
      expectNoHostTraces(JSON.stringify(value));
    });

    it.each(["node:fs", "fs", "host:math"])("refuses a dynamic import of %s", async (specifier) => {
      const result = await run(engine(), `return await import(${JSON.stringify(specifier)});`);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(["GUEST_ERROR", "SYNTAX_ERROR"]).toContain(result.error.code);
      await expectHealthy(engine());
    });

    it("ignores Error.prepareStackTrace and shows only guest frames", async () => {
      const code = `Error.prepareStackTrace = (error, frames) => frames.map((f) => typeof f.getThis === "function" ? f.getThis() : f);
        function inner() { return new Error("probe").stack; }
        return { stack: inner(), capture: typeof Error.captureStackTrace };`;
      const value = valueOf(await run(engine(), code)) as { stack: unknown; capture: string };
      expect(typeof value.stack).toBe("string");
      expect(value.stack).toContain("inner");
      expectNoHostTraces(String(value.stack));
    });

    it("passes host errors as name, message and code only", async () => {
      const secretError = Object.assign(new Error("tool failed"), { secret: "s3cr3t", cause: new Error("inner") });
      const modules: HostModules = { m: { fail: () => Promise.reject(secretError) } };
      const code = `try { require("host:m").fail(); } catch (e) {
          return { own: Object.getOwnPropertyNames(e).sort(), secret: e.secret, cause: e.cause, stack: e.stack, proto: Object.getPrototypeOf(e) === Error.prototype };
        }`;
      const value = valueOf(await run(engine(), code, { modules })) as Record<string, unknown>;
      expect(value.secret).toBeUndefined();
      expect(value.cause).toBeUndefined();
      expect(value.proto).toBe(true);
      expect(value.own).not.toContain("secret");
      expectNoHostTraces(String(value.stack));
    });

    it("gives host functions plain data for Proxies, getters and toJSON objects", async () => {
      const received: unknown[] = [];
      const modules: HostModules = { m: { take: (args) => void received.push(...args) } };
      const code = `let getterRuns = 0;
        const proxy = new Proxy({}, {
          ownKeys: () => ["a", "b"],
          getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }),
          get: (_t, key) => (key === "toJSON" ? undefined : key === "a" ? { nested: true } : 7),
        });
        const getter = { get x() { getterRuns++; return 5; }, f() {}, __proto__: { inherited: 1 } };
        const custom = { toJSON() { return { replaced: "yes" }; } };
        require("host:m").take(proxy, getter, custom, [Symbol("s"), () => 1], JSON.parse('{"__proto__": {"polluted": 1}, "ok": 1}'));
        return getterRuns;`;
      expect(valueOf(await run(engine(), code, { modules }))).toBe(1);
      expect(received).toEqual([{ a: { nested: true }, b: 7 }, { x: 5 }, { replaced: "yes" }, [null, null], { ok: 1 }]);
      for (const value of received) expectPlainData(value);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("stops a Proxy that throws while being serialised before it reaches the host", async () => {
      let called = false;
      const modules: HostModules = { m: { take: () => void (called = true) } };
      const code = 'require("host:m").take(new Proxy({}, { ownKeys() { throw new Error("trap"); } }));';
      const error = errorOf(await run(engine(), code, { modules }), "GUEST_ERROR");
      expect(error.name).toBe("TypeError");
      expect(called).toBe(false);
    });

    it("drops __proto__, constructor and prototype keys from results", async () => {
      const code = `return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"bad": 1}}, "list": [{"__proto__": {"x": 1}}], "ok": 1}');`;
      const value = valueOf(await run(engine(), code));
      expect(value).toEqual({ list: [{}], ok: 1 });
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expectPlainData(value);
    });

    it.each([
      ["a synchronous loop", "while (true) {}"],
      ["a loop that catches everything", "for (;;) { try { while (true) {} } catch (e) {} }"],
      ["a microtask loop", "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});"],
      ["an async loop with awaits", "for (;;) { await null; }"],
    ])("stops %s with CPU_LIMIT", async (_label, code) => {
      errorOf(await run(engine(), code, { limits: { cpuMs: 150 } }), "CPU_LIMIT");
      await expectHealthy(engine());
    });

    it("stops deep recursion with STACK_OVERFLOW", async () => {
      const error = errorOf(await run(engine(), "function down(n) { return down(n + 1) + 1; } return down(0);"), "STACK_OVERFLOW");
      expect(error.message).toContain("call stack");
      // The recursing frame is shown a few times and then counted, not written once per level.
      expect(error.stack).toMatch(/at down \(.*\n.*at down \(.*\n.*at down \(.*\n\s*… the frame above [\d,]+ more times/);
      expect(error.stack?.length).toBeLessThan(2000);
      await expectHealthy(engine());
    });

    // On Node 20, QuickJS's interpreter once hot took ~41 KB of native stack per guest call level, and a
    // guest 185 deep overflowed the worker's stack with an error it could not catch (wasm-frame-size.ts).
    it("recurses 1,000 deep, and lets the guest catch runaway recursion, once the engine's code is hot", async () => {
      const hot = "return Array.from({ length: 20000 }, (_, i) => (i * 7919) % 20011).sort((a, b) => b - a).length;";
      for (let round = 0; round < 5; round++) expect(valueOf(await run(engine(), hot))).toBe(20000);
      expect(valueOf(await run(engine(), "function down(n) { return n === 0 ? 0 : 1 + down(n - 1); } return down(1000);"))).toBe(1000);
      const runaway = "function down(n) { return down(n + 1) + 1; } try { down(0); return 'not stopped'; } catch (e) { return 'caught'; }";
      expect(valueOf(await run(engine(), runaway))).toBe("caught");
      await expectHealthy(engine());
    });

    it.each<[string, string, readonly SandboxErrorCode[]]>([
      ["a huge string", 'return "x".repeat(64 * 1024 * 1024).length;', ["MEMORY_LIMIT"]],
      ["a doubling string", 'let s = "x"; for (;;) s += s;', ["MEMORY_LIMIT", "GUEST_ERROR"]],
      ["a huge array", "return new Array(50_000_000).fill(0).length;", ["MEMORY_LIMIT"]],
      ["a huge ArrayBuffer", "return new ArrayBuffer(1_000_000_000).byteLength;", ["MEMORY_LIMIT"]],
      ["a huge typed array", "return new Uint8Array(2 ** 31).length;", ["MEMORY_LIMIT", "GUEST_ERROR"]],
    ])("ends %s with a clear error", async (_label, code, codes) => {
      const result = await run(engine(), code, { limits: { memoryBytes: 16 * 1024 * 1024 } });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(codes).toContain(result.error.code);
      await expectHealthy(engine());
    });

    it("ends a console flood with OUTPUT_LIMIT, keeping the logs that fit", async () => {
      const result = await run(engine(), 'for (;;) console.log("flood ".repeat(50));', { limits: { outputBytes: 10_000 } });
      errorOf(result, "OUTPUT_LIMIT");
      const kept = result.logs.reduce((sum, entry) => sum + Buffer.byteLength(entry.message), 0);
      expect(kept).toBeLessThanOrEqual(10_000);
      expect(result.logs.length).toBeGreaterThan(0);
      expect(result.stats.droppedLogs).toBeGreaterThan(0);
      await expectHealthy(engine());
    });

    it("ends a huge result with OUTPUT_LIMIT", async () => {
      const code = 'const item = { text: "item" }; return new Array(20000).fill(item);';
      errorOf(await run(engine(), code, { limits: { outputBytes: 100_000 } }), "OUTPUT_LIMIT");
      await expectHealthy(engine());
    });

    it.each([
      ["nested beyond what the host accepts", 2_000],
      // QuickJS's JSON.stringify checks for cycles per level, so this may run out of CPU first.
      ["nested beyond the guest's own stack", 200_000],
    ])("refuses a result %s", async (_label, depth) => {
      const code = `let v = []; for (let i = 0; i < ${depth}; i++) v = [v]; return v;`;
      const result = await run(engine(), code, { limits: { cpuMs: 500 } });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(["RESULT_NOT_SERIALIZABLE", "STACK_OVERFLOW", "CPU_LIMIT"]).toContain(result.error.code);
      await expectHealthy(engine());
    });
  });
}
