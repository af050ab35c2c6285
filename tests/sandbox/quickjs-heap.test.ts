import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import * as QuickJs from "quickjs-emscripten-core";
import { describe, expect, it } from "vitest";
import { meterWasmHeap, type GrowableMemory, type HeapMeter } from "../../src/sandbox/engines/quickjs-heap.js";
import type { CompiledWasmModule } from "../../src/sandbox/engines/quickjs-protocol.js";

/**
 * The heap meter on both QuickJS builds the engines use, against real instances: with a ceiling set,
 * the heap never grows past it by Emscripten's 1.2x headroom, only by what the allocator asked for.
 */

const require = createRequire(import.meta.url);
const MiB = 1024 * 1024;
const CHUNK = 256 * 1024;
const WebAssemblyApi = (globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasmModule>; Memory: new (d: { initial: number; maximum: number }) => GrowableMemory };
}).WebAssembly;

interface Instance {
  readonly heap: HeapMeter;
  readonly context: QuickJs.QuickJSContext;
  dispose(): void;
}

async function instance(variantName: "sync" | "asyncify"): Promise<Instance> {
  const name = `@jitl/quickjs-wasmfile-release-${variantName}`;
  const published = (require(name) as { default: QuickJs.QuickJSSyncVariant | QuickJs.QuickJSAsyncVariant }).default;
  const glue = require(`${name}/emscripten-module`) as unknown;
  const wasmModule = await WebAssemblyApi.compile(await readFile(require.resolve(`${name}/wasm`)));
  const memory = new WebAssemblyApi.Memory({ initial: 256, maximum: 8192 });
  const heap = meterWasmHeap(memory, wasmModule);
  type VariantOptions = Parameters<typeof QuickJs.newVariant>[1];
  const options = { wasmMemory: memory, emscriptenModule: { instantiateWasm: heap.instantiateWasm } } as VariantOptions;
  const base = { ...published, importModuleLoader: () => Promise.resolve(glue) } as typeof published;
  const module =
    variantName === "sync"
      ? await QuickJs.newQuickJSWASMModuleFromVariant(QuickJs.newVariant(base as QuickJs.QuickJSSyncVariant, options))
      : await QuickJs.newQuickJSAsyncWASMModuleFromVariant(QuickJs.newVariant(base as QuickJs.QuickJSAsyncVariant, options));
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  return {
    heap,
    context,
    dispose: () => {
      context.dispose();
      runtime.dispose();
    },
  };
}

/** Allocates `CHUNK`-byte blocks one by one (kept alive) and records the heap's size after each. */
function allocateSteps(target: Instance, count: number): number[] {
  const sizes: number[] = [];
  const setup = target.context.evalCode("globalThis.keep = []; globalThis.more = () => keep.push(new Uint8Array(" + CHUNK + "));");
  (setup.error ?? setup.value).dispose();
  for (let i = 0; i < count; i++) {
    const step = target.context.evalCode("more()");
    if (step.error) throw new Error(`allocation failed: ${JSON.stringify(target.context.dump(step.error))}`);
    step.value.dispose();
    sizes.push(target.heap.bytes());
  }
  return sizes;
}

for (const build of ["sync", "asyncify"] as const) {
  describe(`heap meter, ${build} build`, () => {
    it("keeps the heap at or below the ceiling while the allocator's need is, then grows only by what it asks", async () => {
      const target = await instance(build);
      try {
        const start = target.heap.bytes();
        const ceiling = start + 24 * MiB;
        target.heap.limitHeadroom(ceiling);
        // ~40 MiB in 256 KiB blocks: the allocator's need crosses the ceiling about two thirds in.
        const sizes = allocateSteps(target, 160);
        const firstOver = sizes.findIndex((size) => size > ceiling);
        expect(firstOver).toBeGreaterThan(0);
        for (let i = firstOver; i < sizes.length; i++) {
          // One block (plus its header and the allocator's 64 KiB granularity) at a time, never a 1.2x step.
          expect((sizes[i] ?? 0) - Math.max(ceiling, sizes[i - 1] ?? 0)).toBeLessThanOrEqual(CHUNK + 128 * 1024);
        }
        // Every block was really allocated in the heap: it grew by at least what the blocks take.
        expect((sizes.at(-1) ?? 0) - start).toBeGreaterThan(160 * CHUNK - 16 * MiB);
      } finally {
        target.dispose();
      }
    });

    it("without a ceiling, the glue's own headroom applies (the control for the case above)", async () => {
      const target = await instance(build);
      try {
        const start = target.heap.bytes();
        target.heap.limitHeadroom(undefined);
        const sizes = allocateSteps(target, 160);
        const jumps = sizes.map((size, i) => size - (i === 0 ? start : (sizes[i - 1] ?? 0)));
        // Emscripten grows by a fifth of the heap at a time: far more than one block.
        expect(Math.max(...jumps)).toBeGreaterThan(4 * MiB);
      } finally {
        target.dispose();
      }
    });
  });
}

describe("heap meter, glue it does not know", () => {
  it("refuses a glue whose heap-resize import it cannot find, rather than run without a memory check", () => {
    const heap = meterWasmHeap(new WebAssemblyApi.Memory({ initial: 1, maximum: 2 }), {} as CompiledWasmModule);
    expect(() => heap.instantiateWasm({ a: { b: () => 1, c: 2 } }, () => undefined)).toThrow(/0 heap-resize functions, expected one/);
  });
});
