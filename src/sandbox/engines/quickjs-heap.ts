import type { CompiledWasmModule } from "./quickjs-protocol.js";

/** A wasm memory as Emscripten's glue uses it. */
export interface GrowableMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

/** The import object Emscripten's glue instantiates its wasm with (module name -> field -> value). */
export type WasmImports = Record<string, Record<string, unknown>>;

/** A QuickJS instance's heap, with its growth steered so that its size says what the allocator needed. */
export interface HeapMeter {
  /**
   * Emscripten's `instantiateWasm` hook (pass it in the module arguments, and no `wasmModule`
   * option, which would replace it): instantiates the module with the heap-growth import observed.
   */
  readonly instantiateWasm: (imports: WasmImports, done: (instance: object, module: CompiledWasmModule) => void) => object;
  /** Size of the heap now. */
  bytes(): number;
  /**
   * While a run is in progress: the heap may grow beyond what the allocator asks for (Emscripten's
   * headroom) only up to `ceiling` bytes; undefined between runs.
   */
  limitHeadroom(ceiling: number | undefined): void;
}

/**
 * Steers how a QuickJS instance's heap grows, so that a run's memory check can compare the heap's
 * growth with the run's budget without counting Emscripten's headroom as the run's own need.
 *
 * When the allocator needs more memory than the heap has, Emscripten's glue (`emscripten_resize_heap`)
 * grows the heap to the larger of what was asked and 1.2 times its current size. That headroom is
 * not memory any run asked for, yet a check of the heap's growth would count it: a run needing 60 MB
 * of a 64 MiB budget could cross the budget by one step. So during a run the headroom stops at the
 * run's ceiling (the heap at its start plus its budget): the heap grows past the ceiling only by
 * what the allocator itself asked for, and the heap outgrows the ceiling exactly when the
 * allocator's break did. Between runs the glue's own policy applies.
 *
 * RUNS IN THE WORKER THREAD too (passed by source text, see quickjs-assets.ts): it references
 * nothing outside its body.
 */
export function meterWasmHeap(memory: GrowableMemory, wasmModule: CompiledWasmModule): HeapMeter {
  const PAGE = 65536;
  /** While the glue's resize runs: the byte size the allocator's new break needs; 0 otherwise. */
  let asked = 0;
  let ceiling: number | undefined;
  const grow = memory.grow.bind(memory);
  // The glue calls grow() on the memory object it was given (this one), after computing its
  // headroom; the pages it asks for include that headroom, which is trimmed here.
  memory.grow = (pages: number): number => {
    if (asked === 0 || ceiling === undefined) return grow(pages);
    const have = memory.buffer.byteLength / PAGE;
    const needed = Math.ceil(asked / PAGE) - have;
    const allowed = Math.floor(ceiling / PAGE) - have;
    return grow(Math.max(needed, Math.min(pages, allowed)));
  };

  return {
    instantiateWasm(imports, done) {
      // The glue's import names are minified (and differ between builds): the heap-resize import
      // is the one function that grows the memory.
      const resizers: Array<[Record<string, unknown>, string, (requested: number) => unknown]> = [];
      for (const fields of Object.values(imports)) {
        for (const [name, value] of Object.entries(fields)) {
          if (typeof value === "function" && /\.grow\(/.test(Function.prototype.toString.call(value))) resizers.push([fields, name, value as (requested: number) => unknown]);
        }
      }
      const found = resizers[0];
      if (found === undefined || resizers.length !== 1) {
        throw new Error(`QuickJS's glue has ${resizers.length} heap-resize functions, expected one (the memory limit needs it)`);
      }
      const [fields, name, resize] = found;
      fields[name] = (requested: number): unknown => {
        asked = requested >>> 0;
        try {
          return resize(requested);
        } finally {
          asked = 0;
        }
      };
      const wasm = (globalThis as unknown as { WebAssembly: { instantiate(module: CompiledWasmModule, imports: WasmImports): Promise<object> } }).WebAssembly;
      void wasm.instantiate(wasmModule, imports).then((instance) => done(instance, wasmModule));
      return {};
    },
    bytes: () => memory.buffer.byteLength,
    limitHeadroom(bytes) {
      ceiling = bytes;
    },
  };
}
