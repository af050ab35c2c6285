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
   * headroom) only up to `ceiling` bytes, and never to serve an allocation that needs more than
   * `ceiling`; undefined between runs. Setting a ceiling clears `overBudget`.
   */
  limitHeadroom(ceiling: number | undefined): void;
  /**
   * Whether the run is over its budget: since the ceiling was set, the allocator asked for more than
   * it and was refused, or the heap is past it anyway.
   */
  overBudget(): boolean;
  /** The pacing of one context's interrupt checks (see InterruptPace); `context` is its JSContext pointer. */
  paceChecks(context: number): InterruptPace;
}

/**
 * QuickJS asks its interrupt handler (where every limit is checked) once per 10,000 counted steps: a
 * branch or call of guest code, whatever native work each does. A loop whose body is one heavy built-in
 * call (`s.split("").reverse().join("")` over 100,000 characters, ~65 ms) was asked once per ~1,460 turns:
 * with cpuMs = 1000 the in-thread engine held the whole process for 93 s, and a shared thread's other runs
 * failed when the thread was terminated. The pace rewrites the context's counter at each check so that
 * the next check comes after about PACE_MS of compute, going by how long the last steps took, and each
 * run starts with a short count, so its first check comes early. The counter is QuickJS's own word in
 * the context (`interrupt_counter`, at the same offset in both builds pinned here, checked by
 * tests/sandbox/quickjs-pace.test.ts); a word that does not hold a counter's value at a run's start, or is
 * not back at 10,000 at a check, is never written again.
 *
 * What it cannot do: the steps are counted, not timed, so one long built-in call, or heavy calls that
 * follow a run of cheap steps (10,000 steps at the pace of the cheap ones), still hold the thread until
 * the next check (docs/SECURITY.md).
 */
export interface InterruptPace {
  /** A run starts on this context; `computeMs` is its compute clock (0 at its start). */
  start(computeMs: number): void;
  /** At each interrupt check (not at the resumption of a suspended one), with the run's compute clock. */
  check(computeMs: number): void;
}

/**
 * Steers how a QuickJS instance's heap grows, so that a run's memory check can compare the heap's
 * growth with the run's budget without counting Emscripten's headroom as the run's own need.
 *
 * When the allocator needs more memory than the heap has, Emscripten's glue (`emscripten_resize_heap`)
 * grows the heap to the larger of what was asked and 1.2 times its current size. That headroom is
 * not memory any run asked for, yet a check of the heap's growth would count it: a run needing 60 MB
 * of a 64 MiB budget could cross the budget by one step. So during a run the headroom stops at the
 * run's ceiling (the heap at its start plus its budget), and an allocation that needs more than the
 * ceiling is refused (`overBudget` then says so): the heap never outgrows the ceiling, and the run
 * is over its budget exactly when the allocator's break would have. Between runs the glue's own
 * policy applies.
 *
 * RUNS IN THE WORKER THREAD too (passed by source text, see quickjs-assets.ts): it references
 * nothing outside its body.
 */
export function meterWasmHeap(memory: GrowableMemory, wasmModule: CompiledWasmModule): HeapMeter {
  const PAGE = 65536;
  /** While the glue's resize runs: the byte size the allocator's new break needs; 0 otherwise. */
  let asked = 0;
  let ceiling: number | undefined;
  let refused = false;
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

  // The interrupt pace (InterruptPace): QuickJS's JS_INTERRUPT_COUNTER_INIT, and where JSContext keeps
  // its counter in this wasm32 build; found by writing 1 at each check of a loop (only that word makes
  // the checks come at every step), for the sync and the asyncify build alike.
  const COUNTER_OFFSET = 232;
  const COUNTER_INIT = 10_000;
  const PACE_MS = 1;
  const FIRST_COUNT = 1;
  const MIN_COUNT = 1;
  /** Whether the counter is where it is expected: false once a check has shown it is not (see paceChecks). */
  let counterFound: boolean | undefined;
  const word = (address: number, value?: number): number => {
    const view = new DataView(memory.buffer);
    if (value !== undefined) view.setInt32(address, value, true);
    return view.getInt32(address, true);
  };

  return {
    paceChecks(context) {
      const address = context + COUNTER_OFFSET;
      let last = 0;
      let count = COUNTER_INIT;
      return {
        start(computeMs) {
          last = computeMs;
          count = COUNTER_INIT;
          if (counterFound === false) return;
          // A counter holds 0..10,000 (0 in a context no check has reset yet); anything else is not the counter.
          const now = word(address);
          if (now < 0 || now > COUNTER_INIT) {
            counterFound = false;
            return;
          }
          count = FIRST_COUNT;
          word(address, count);
        },
        check(computeMs) {
          if (counterFound === false) return;
          // QuickJS sets the counter back to its initial value just before it asks the handler: a word
          // that is not back from the value written into it is not the counter, and is never written again.
          if (word(address) !== COUNTER_INIT) {
            counterFound = false;
            return;
          }
          counterFound = true;
          const elapsed = computeMs - last;
          last = computeMs;
          count = elapsed <= 0 ? COUNTER_INIT : Math.max(MIN_COUNT, Math.min(COUNTER_INIT, Math.floor((count * PACE_MS) / elapsed)));
          if (count < COUNTER_INIT) word(address, count);
        },
      };
    },
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
        // An allocation the run's budget cannot hold is refused at once, as the glue refuses one past
        // the heap's maximum: malloc returns NULL, QuickJS throws its out-of-memory error, and the
        // run ends with MEMORY_LIMIT at its next check. Growing first and checking later let a loop
        // of large allocations between two interrupt checks take the heap to its hard maximum.
        if (ceiling !== undefined && requested >>> 0 > ceiling) {
          refused = true;
          return false;
        }
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
      if (bytes !== undefined) refused = false;
    },
    overBudget: () => refused || (ceiling !== undefined && memory.buffer.byteLength > ceiling),
  };
}
