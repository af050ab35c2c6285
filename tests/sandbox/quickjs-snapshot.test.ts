import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import * as QuickJs from "quickjs-emscripten-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestBootstrapSource, guestPieces } from "../../src/sandbox/guest/bootstrap-source.js";
import { compileQuickJsPiece, prepareQuickJsSandbox, type PreparedSandbox, type SandboxSources } from "../../src/sandbox/engines/quickjs-sandbox.js";
import { snapshotQuickJsSandbox, wasmMemoryLayout, type SandboxSnapshot, type WasmMemoryLayout } from "../../src/sandbox/engines/quickjs-snapshot.js";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { sharedQuickJsWorkers } from "../../src/sandbox/engines/quickjs-shared-pool.js";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import { inlinePoolFor } from "../../src/sandbox/engines/quickjs-inline-instances.js";
import type { SandboxEngine } from "../../src/sandbox/types.js";

/**
 * The worker engine's sandbox image (quickjs-snapshot.ts), on the real synchronous build in this
 * thread: the layout read from the wasm binary, a restore that brings back a fresh runtime and
 * context whatever the run did, a new Math.random seed for every restore, and the engine using it.
 */

const require = createRequire(import.meta.url);
const VARIANT = "@jitl/quickjs-wasmfile-release-sync";
const MiB = 1024 * 1024;
/** A job queue that never drains: without an image, freeing this runtime is not safe, so the worker or instance would be replaced. */
const ENDLESS_JOB_QUEUE = "globalThis.left = 1; const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});";
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const WebAssemblyApi = (globalThis as unknown as {
  WebAssembly: { validate(bytes: Uint8Array): boolean; Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
}).WebAssembly;

async function wasmBytes(): Promise<Uint8Array> {
  return new Uint8Array(await readFile(require.resolve(`${VARIANT}/wasm`)));
}


/** Unsigned and signed LEB128, as wasm encodes sizes and i32 constants. */
function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}
function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}
const section = (id: number, payload: number[]): number[] => [id, ...uleb(payload.length), ...payload];

/** A valid wasm module laid out like Emscripten's: a mutable i32 stack pointer and 1 KiB of data at 1024. */
function tinyModule(stackTop: number): Uint8Array {
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(6, [0x01, 0x7f, 0x01, 0x41, ...sleb(stackTop), 0x0b]),
    ...section(11, [0x01, 0x00, 0x41, ...sleb(1024), 0x0b, ...uleb(1024), ...new Array<number>(1024).fill(7)]),
  ];
  const module = new Uint8Array(bytes);
  expect(WebAssemblyApi.validate(module)).toBe(true);
  return module;
}

/** The end of the last non-zero byte of memory below `below`. */
function nonZeroTop(memory: WasmMemory, below: number): number {
  const bytes = new Uint8Array(memory.buffer);
  for (let i = below - 1; i >= 0; i--) if (bytes[i] !== 0) return i + 1;
  return 0;
}

describe("the wasm memory layout", () => {
  it("reads the stack's top (the heap's base) and the data's end from the synchronous build", async () => {
    const layout = wasmMemoryLayout(await wasmBytes());
    expect(layout).toBeDefined();
    const { dataEnd, heapBase } = layout as WasmMemoryLayout;
    // Emscripten's 5 MiB stack lies between the data (with bss) and the heap.
    expect(heapBase - dataEnd).toBe(5 * MiB);
    expect(dataEnd).toBeGreaterThan(64 * 1024);
    expect(dataEnd).toBeLessThan(1 * MiB);
  });

  it("refuses what is not a wasm binary, and treats a layout it does not recognise as all data", () => {
    expect(wasmMemoryLayout(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toBeUndefined();
    // Data ending at 2048, a stack's top 5 MiB + 1000 bytes above it: a default stack over a small bss.
    const usual = 2048 + 5 * MiB + 1000;
    expect(wasmMemoryLayout(tinyModule(usual))).toEqual({ dataEnd: usual - 5 * MiB, heapBase: usual });
    // 70000 - 2048 is no 5 MiB stack: everything below the heap counts as data (slower, never wrong).
    expect(wasmMemoryLayout(tinyModule(70000))).toEqual({ dataEnd: 70000, heapBase: 70000 });
  });
});

describe("a sandbox image", () => {
  let module: QuickJs.QuickJSWASMModule;
  let memory: WasmMemory;
  let layout: WasmMemoryLayout;
  let sandbox: PreparedSandbox;
  let image: SandboxSnapshot;
  const sources: SandboxSources = { bootstrap: guestBootstrapSource(), pieces: guestPieces() };

  const evalIn = (code: string): unknown => {
    const result = sandbox.context.evalCode(code, "test.js");
    if (result.error) {
      const error = sandbox.context.dump(result.error) as unknown;
      result.error.dispose();
      throw new Error(JSON.stringify(error));
    }
    const value = sandbox.context.dump(result.value) as unknown;
    result.value.dispose();
    return value;
  };

  beforeAll(async () => {
    const bytes = await wasmBytes();
    layout = wasmMemoryLayout(bytes) as WasmMemoryLayout;
    memory = new WebAssemblyApi.Memory({ initial: 256, maximum: 8192 });
    const published = (require(VARIANT) as { default: QuickJs.QuickJSSyncVariant }).default;
    const glue = require(`${VARIANT}/emscripten-module`) as unknown;
    type VariantOptions = Parameters<typeof QuickJs.newVariant>[1];
    const base = { ...published, importModuleLoader: () => Promise.resolve(glue) } as QuickJs.QuickJSSyncVariant;
    module = await QuickJs.newQuickJSWASMModuleFromVariant(QuickJs.newVariant(base, { wasmMemory: memory } as VariantOptions));
    sandbox = prepareQuickJsSandbox(module, sources);
    for (const name of Object.keys(sources.pieces)) compileQuickJsPiece(sandbox, sources, name);
    const taken = snapshotQuickJsSandbox(sandbox, memory, layout);
    expect(taken).toBeDefined();
    image = taken as SandboxSnapshot;
  });

  afterAll(() => {
    image.restore();
    sandbox.compiled?.dispose();
    sandbox.configure.dispose();
    sandbox.native.dispose();
    sandbox.context.dispose();
    sandbox.runtime.dispose();
  });

  it("holds everything written below the stack and in the heap: above the image there are only zeros", () => {
    // Taken in a fresh instance, so memory nobody wrote is zero. Below the stack: static data and bss.
    expect(nonZeroTop(memory, layout.heapBase - 64 * 1024)).toBeLessThanOrEqual(layout.dataEnd);
    expect(image.dataBytes).toBe(layout.dataEnd);
    // The heap image ends where the allocator's top chunk begins (found by its probe, not by a scan):
    // the scan must agree that nothing was written above it but the top chunk's own header.
    const heapEnd = layout.heapBase + image.heapBytes;
    expect(nonZeroTop(memory, memory.buffer.byteLength)).toBeLessThanOrEqual(heapEnd);
    expect(image.heapBytes).toBeGreaterThan(64 * 1024);
    expect(image.heapBytes).toBeLessThan(4 * MiB);
  });

  it("gives back a context with nothing of what the previous run did: globals, prototypes, queued jobs, host functions", () => {
    evalIn(`globalThis.leaked = "secret"; Object.prototype.polluted = 1; Array.prototype.map = null;
      Promise.resolve().then(function again() { return Promise.resolve().then(again); }); 1`);
    const extra = sandbox.context.newFunction("extra", () => sandbox.context.undefined);
    sandbox.context.setProp(sandbox.context.global, "extra", extra);
    extra.dispose();
    expect(evalIn("typeof leaked + ':' + ({}).polluted + ':' + typeof extra")).toBe("string:1:function");
    expect(sandbox.runtime.hasPendingJob()).toBe(true);

    image.restore();

    expect(evalIn("typeof leaked + ':' + ({}).polluted + ':' + typeof extra + ':' + typeof [].map")).toBe("undefined:undefined:undefined:function");
    expect(sandbox.runtime.hasPendingJob()).toBe(false);
    image.restore();
  });

  it("keeps the bootstrap's configure step and its compiled pieces callable after a restore", () => {
    // Since wave 32 the image holds the bootstrap's first step (the globals every run installs alike:
    // console, require); a run's own part (configure with its manifest: __mcpvm) is gone after a restore.
    for (let round = 0; round < 3; round++) {
      const { context } = sandbox;
      expect(evalIn("typeof console.log + typeof require + typeof __mcpvm")).toBe("functionfunctionundefined");
      const manifest = context.newString(JSON.stringify({ names: [], tools: false, maxResultChars: 1000, bytesKey: "$bytes" }));
      const runner = context.callFunction(sandbox.configure, context.undefined, manifest);
      manifest.dispose();
      if (runner.error !== undefined) expect.fail(JSON.stringify(context.dump(runner.error)));
      runner.value.dispose();
      expect(evalIn("typeof __mcpvm.callAsync")).toBe("function");
      image.restore();
      expect(evalIn("typeof __mcpvm")).toBe("undefined");
    }
  });

  it("seeds Math.random afresh on every restore", () => {
    const sequences = new Set<string>();
    for (let round = 0; round < 5; round++) {
      image.restore();
      sequences.add(String(evalIn("[Math.random(), Math.random()].join(',')")));
    }
    expect(sequences.size).toBe(5);
    image.restore();
  });

  it("is quicker to restore than to build a sandbox", () => {
    // Not a timing goal (that is the bench's): a restore that is not much cheaper means it copies too much.
    const restores = 20;
    let started = performance.now();
    for (let i = 0; i < restores; i++) image.restore();
    const restoreMs = (performance.now() - started) / restores;
    started = performance.now();
    for (let i = 0; i < restores; i++) {
      const built = prepareQuickJsSandbox(module, sources);
      built.configure.dispose();
      built.native.dispose();
      built.context.dispose();
      built.runtime.dispose();
    }
    const buildMs = (performance.now() - started) / restores;
    expect(restoreMs).toBeLessThan(buildMs);
  });
});

describe("the worker engine with sandbox images", () => {
  let engine: SandboxEngine;
  // A memory cap of its own, so this pool's workers are this test's alone.
  const maxWasmMemoryBytes = 320 * MiB;
  beforeAll(async () => {
    // Retirement for size is not what these tests are about (a stopped job-queue run can grow the heap).
    engine = await createQuickJsEngine({ workerMode: "thread", warmWorkers: 1, maxWorkers: 1, maxWasmMemoryBytes, retireAboveBytes: maxWasmMemoryBytes });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it("takes an image after a worker's first run and gives later runs different random numbers and none of each other's state", async () => {
    const imaged = (): boolean => sharedQuickJsWorkers({ maxWasmMemoryBytes }).threads.some((thread) => thread.imaged);
    expect(imaged()).toBe(false);
    expect((await engine.run({ code: "return 1" })).ok).toBe(true);
    for (let i = 0; i < 100 && !imaged(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(imaged()).toBe(true);
    const values = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await engine.run({ code: "const seen = typeof globalThis.mark; globalThis.mark = 1; Object.prototype.p = 1; return seen + ':' + Math.random();" });
      expect(result.ok, result.ok ? "" : result.error.message).toBe(true);
      if (!result.ok) continue;
      const [seen, random] = String(result.value).split(":");
      expect(seen).toBe("undefined");
      values.add(random ?? "");
    }
    expect(values.size).toBe(6);
  });

  it("keeps a worker whose run was stopped by a limit (the image undoes it) and gives the next run a clean sandbox", async () => {
    const threads = (): number[] => sharedQuickJsWorkers({ maxWasmMemoryBytes }).threads.map((thread) => thread.threadId).sort();
    // Only a worker with its image keeps its thread after a stopped run: a warm refill that has not
    // run yet has none (it takes one after its first run), so a stopped run placed on it poisons its
    // sandbox and retires it, as it should. On a loaded machine the pool may hold such a refill here.
    const imagedThreads = (): number[] =>
      sharedQuickJsWorkers({ maxWasmMemoryBytes }).threads.filter((thread) => thread.imaged).map((thread) => thread.threadId).sort();
    const spawnedBefore = sharedQuickJsWorkers().spawned;
    const before = imagedThreads();
    const withoutImage = threads().length - before.length;
    expect(before.length).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const stopped = await engine.run({ code: ENDLESS_JOB_QUEUE, limits: { cpuMs: 150, wallMs: 5_000 } });
      expect(stopped.ok ? "ok" : stopped.error.code).toBe("CPU_LIMIT");
      const next = await engine.run({ code: "return typeof globalThis.left" });
      expect(next.ok ? next.value : next.error.message).toBe("undefined");
    }
    // Every worker that had its image is still there (a retired one would be gone); new are at most
    // the warm set's refill (started when a run takes the only idle worker) and the replacements of
    // workers that had none.
    expect(threads()).toEqual(expect.arrayContaining(before));
    expect(sharedQuickJsWorkers().spawned - spawnedBefore).toBeLessThanOrEqual(1 + withoutImage);
  });
});

describe("the in-thread engine with sandbox images", () => {
  // A memory cap of its own, so this pool is not shared with other tests' engines.
  const cap = 300 * MiB;
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await createQuickJsInlineEngine({ maxInstances: 2, idleInstances: 1, maxWasmMemoryBytes: cap, retireAboveBytes: cap });
  });
  afterAll(async () => {
    await engine.dispose();
  });

  it("takes an image once idle and gives later runs fresh state and different random numbers", async () => {
    const first = await engine.run({ code: "return 1" });
    expect(first.ok).toBe(true);
    // The image is taken in an immediate after a run, like the next sandbox's build.
    for (let i = 0; i < 50 && (inlinePoolFor(cap)?.imaged ?? 0) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inlinePoolFor(cap)?.imaged).toBe(1);
    const values = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await engine.run({ code: "const seen = typeof globalThis.mark; const map = typeof [].map; globalThis.mark = 1; Array.prototype.map = null; return seen + ':' + map + ':' + Math.random();" });
      expect(result.ok, result.ok ? "" : result.error.message).toBe(true);
      if (!result.ok) continue;
      const [seen, map, random] = String(result.value).split(":");
      expect([seen, map]).toEqual(["undefined", "function"]);
      values.add(random ?? "");
    }
    expect(values.size).toBe(6);
    expect(inlinePoolFor(cap)?.created).toBe(1);
  });

  it("keeps an instance whose run was stopped by a limit (the image undoes it)", async () => {
    for (let i = 0; i < 3; i++) {
      const stopped = await engine.run({ code: ENDLESS_JOB_QUEUE, limits: { cpuMs: 150, wallMs: 5_000 } });
      expect(stopped.ok ? "ok" : stopped.error.code).toBe("CPU_LIMIT");
      const next = await engine.run({ code: "return typeof globalThis.left" });
      expect(next.ok ? next.value : next.error.message).toBe("undefined");
    }
    // Without the image each stopped run's instance would be dropped and a new one instantiated.
    expect(inlinePoolFor(cap)?.created).toBe(1);
  });
});
