import type * as QuickJs from "quickjs-emscripten-core";

/** What a snapshot needs of a sandbox: either engine's (PreparedSandbox, InlineSandbox). */
export interface SnapshotSandbox {
  readonly runtime: QuickJs.QuickJSRuntime;
  readonly context: QuickJs.QuickJSContext;
  /** The run's interrupt handler (an asyncify run's may yield: see quickjs-yield.ts; not at this registration). */
  hooks: { shouldInterrupt(mayYield: () => boolean): boolean | Promise<boolean> } | undefined;
}

/**
 * Where a QuickJS wasm build keeps its state in linear memory: Emscripten lays out static data
 * (initialised data, then zeroed `bss`), then the C stack, then the malloc heap. Read from the wasm
 * binary by `wasmMemoryLayout`.
 */
export interface WasmMemoryLayout {
  /** End of static data and bss: [0, dataEnd) is restored. */
  readonly dataEnd: number;
  /** Start of the malloc heap (the stack's top; the stack grows down from here). */
  readonly heapBase: number;
}

/** Emscripten's default C stack (STACK_SIZE) in the builds quickjs-emscripten 0.32 ships. */
const EMSCRIPTEN_STACK_BYTES = 5 * 1024 * 1024;
/** bss of a QuickJS build is a few KB; a gap past the data that leaves more than this is not understood. */
const MAX_BSS_BYTES = 64 * 1024;

/**
 * Reads the memory layout of an Emscripten wasm binary: the stack pointer's initial value (global 0,
 * the top of the stack and the heap's base) and where the active data segments end. Returns
 * undefined if the binary does not look like that (then no snapshot is taken). If the gap between
 * the data and the stack's top is not one default stack plus a small bss, the whole area below the
 * heap is treated as data (slower to restore, never wrong).
 */
export function wasmMemoryLayout(bytes: Uint8Array): WasmMemoryLayout | undefined {
  let at = 8;
  const u32 = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error("truncated");
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) return result;
    }
  };
  const s32 = (): number => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      const next = bytes[at++];
      if (next === undefined) throw new Error("truncated");
      byte = next;
      result |= (byte & 0x7f) << shift;
      shift += 7;
    } while ((byte & 0x80) !== 0 && shift < 35);
    if (shift < 32 && (byte & 0x40) !== 0) result |= -1 << shift;
    return result;
  };
  const I32_CONST = 0x41;
  const END = 0x0b;
  let stackTop: number | undefined;
  let dataTop = 0;
  try {
    if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) return undefined;
    while (at < bytes.length) {
      const id = bytes[at++];
      const size = u32();
      const end = at + size;
      if (id === 6) {
        // Global section: the first global is Emscripten's __stack_pointer (mutable i32).
        u32();
        const type = bytes[at++];
        const mutable = bytes[at++];
        if (type !== 0x7f || mutable !== 1 || bytes[at++] !== I32_CONST) return undefined;
        stackTop = s32();
      } else if (id === 11) {
        const count = u32();
        for (let i = 0; i < count; i++) {
          // Only active segments of memory 0 with a constant offset (flag 0) are expected.
          if (u32() !== 0 || bytes[at++] !== I32_CONST) return undefined;
          const offset = s32();
          if (bytes[at++] !== END) return undefined;
          const length = u32();
          dataTop = Math.max(dataTop, offset + length);
          at += length;
        }
      }
      at = end;
    }
  } catch {
    return undefined;
  }
  if (stackTop === undefined || stackTop <= dataTop) return undefined;
  const gap = stackTop - dataTop;
  const dataEnd = gap >= EMSCRIPTEN_STACK_BYTES && gap - EMSCRIPTEN_STACK_BYTES <= MAX_BSS_BYTES ? stackTop - EMSCRIPTEN_STACK_BYTES : stackTop;
  return { dataEnd, heapBase: stackTop };
}

/**
 * A built sandbox kept as an image of its wasm instance's memory: restoring the image gives the
 * next run the same fresh runtime and context, with the bootstrap and every piece compiled, in the
 * time a memory copy takes instead of building them again (most of a trivial run's cost).
 */
export interface SandboxSnapshot<S extends SnapshotSandbox = SnapshotSandbox> {
  readonly sandbox: S;
  /** Bytes the image holds: static data from address 0, and the heap in use from the layout's heapBase. */
  readonly dataBytes: number;
  readonly heapBytes: number;
  /** Puts the instance's memory and the wrappers' bookkeeping back as they were, with a new Math.random seed. */
  restore(): void;
}

/**
 * Takes a snapshot of a freshly built sandbox (its bootstrap not called, or only the first step that every run
 * takes alike, see installGuestGlobals: nothing of any run in it).
 * RUNS IN THE WORKER THREAD (embedded by its source text, see quickjs-assets.ts): it references
 * nothing outside its body. Returns undefined when this build or library version does not look as
 * expected; the worker then builds every sandbox as before.
 *
 * What a restore brings back: static data and bss (malloc's state among them) and the heap up to the
 * snapshot's top chunk, byte for byte, so every object, atom, shape and job queue of the previous
 * run is gone; what it leaves: the C stack below the stack pointer (dead between calls) and free
 * memory above the snapshot's heap (the allocator's top chunk), which hold what a previous run's
 * freed memory held, exactly as a runtime freed and built again in the same instance would. The
 * JavaScript wrappers of quickjs-emscripten (QuickJSRuntime, QuickJSContext) keep a little state of
 * their own (cached handles, host function ids, the interrupt handler's registration); it is put
 * back too, and everything a snapshot relies on is checked here, once per instance.
 *
 * Every context would otherwise start with the same Math.random state (QuickJS seeds it from the
 * clock when the context is created), so each restore writes a fresh random seed into it: the
 * seed's place in the context is found by calling Math.random and checking the result against
 * QuickJS's xorshift64* generator; if that check fails, no snapshot is taken.
 */
export function snapshotQuickJsSandbox<S extends SnapshotSandbox>(
  sandbox: S,
  memory: { readonly buffer: ArrayBuffer },
  layout: { readonly dataEnd: number; readonly heapBase: number },
): SandboxSnapshot<S> | undefined {
  type Bag = Record<string, unknown>;
  const { context, runtime } = sandbox;
  const ctxBag = context as unknown as Bag;
  const rtBag = runtime as unknown as Bag;
  const ctxPointer = (ctxBag["ctx"] as { value?: unknown } | undefined)?.value;
  const contextScope = ((ctxBag["memory"] as Bag | undefined)?.["scope"] as Bag | undefined)?.["_disposables"] as { value?: unknown } | undefined;
  const runtimeScope = (rtBag["scope"] as Bag | undefined)?.["_disposables"] as { value?: unknown } | undefined;
  const hostRefs = rtBag["hostRefs"] as { nextId?: unknown; freelist?: unknown; groups?: unknown } | undefined;
  if (
    typeof ctxPointer !== "number" ||
    !(contextScope?.value instanceof Set) ||
    !(runtimeScope?.value instanceof Set) ||
    hostRefs === undefined ||
    typeof hostRefs.nextId !== "number" ||
    !Array.isArray(hostRefs.freelist) ||
    !(hostRefs.groups instanceof Map)
  ) {
    return undefined;
  }
  const bytes = (): Uint8Array => new Uint8Array(memory.buffer);

  // The context's cached handles are created on first use; made now, they live in the image.
  void context.global;
  void context.undefined;
  // The C side registers the interrupt handler only when the wrapper first gets one: registered now,
  // the registration is in the image, and each run's handler replaces the wrapper's.
  runtime.setInterruptHandler(() => (sandbox.hooks?.shouldInterrupt(() => false) ?? true) === true);

  // Find the context's Math.random state: the 8 bytes of the context that a call changes and that,
  // set to a known seed, give the value QuickJS's generator gives for that seed.
  const MASK = (1n << 64n) - 1n;
  const next = (state: bigint): { state: bigint; value: number } => {
    let x = state;
    x ^= x >> 12n;
    x = (x ^ (x << 25n)) & MASK;
    x ^= x >> 27n;
    const v = (x * 0x2545f4914f6cdd1dn) & MASK;
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, (0x3ffn << 52n) | (v >> 12n), true);
    return { state: x, value: view.getFloat64(0, true) - 1 };
  };
  const math = context.getProp(context.global, "Math");
  const random = context.getProp(math, "random");
  math.dispose();
  let seedAt: number | undefined;
  try {
    const SPAN = 2048;
    const before = bytes().slice(ctxPointer, ctxPointer + SPAN);
    context.unwrapResult(context.callFunction(random, context.undefined)).dispose();
    const after = bytes().slice(ctxPointer, ctxPointer + SPAN);
    for (let offset = 0; offset + 8 <= SPAN && seedAt === undefined; offset += 8) {
      let changed = false;
      for (let i = offset; i < offset + 8; i++) if (before[i] !== after[i]) changed = true;
      if (!changed) continue;
      const view = new DataView(memory.buffer);
      const original = view.getBigUint64(ctxPointer + offset, true);
      const seed = 0x9e3779b97f4a7c15n;
      view.setBigUint64(ctxPointer + offset, seed, true);
      const result = context.callFunction(random, context.undefined);
      const got = result.error === undefined ? context.getNumber(result.value) : NaN;
      (result.error ?? result.value).dispose();
      const expected = next(seed);
      const stateNow = new DataView(memory.buffer).getBigUint64(ctxPointer + offset, true);
      if (got === expected.value && stateNow === expected.state) seedAt = ctxPointer + offset;
      else new DataView(memory.buffer).setBigUint64(ctxPointer + offset, original, true);
    }
  } finally {
    random.dispose();
  }
  if (seedAt === undefined) return undefined;
  const seedAddress = seedAt;

  // Where the heap in use ends: the allocator (Emscripten's dlmalloc, which grows one contiguous
  // heap with sbrk) serves a request larger than every free chunk from its top chunk, the free
  // memory above everything allocated, so the address it returns is that boundary (plus the chunk
  // header). Reading the memory to find the last byte in use would touch megabytes of pages the
  // instance never used (tens of ms of page faults on a VM). Freed at once, the probe goes back to
  // the top chunk, which the allocator then trims to less than a wasm page, writing its end marker
  // (a fake chunk header) at the new break: the image reaches past that marker, the last non-zero
  // word within the trim's reach above the probe (nothing else was ever written there).
  const emscripten = ctxBag["module"] as { _malloc?: unknown; _free?: unknown } | undefined;
  if (typeof emscripten?._malloc !== "function" || typeof emscripten._free !== "function") return undefined;
  const PROBE_BYTES = 4 * 1024 * 1024;
  const probe = (emscripten._malloc as (size: number) => number)(PROBE_BYTES);
  if (probe === 0) return undefined;
  (emscripten._free as (pointer: number) => void)(probe);
  if (probe < layout.heapBase || probe + PROBE_BYTES + 16 > memory.buffer.byteLength) return undefined;
  const all = bytes();
  const TRIM_REACH = 256 * 1024;
  // While allocated, the probe had the top chunk's header and end marker above it; both are free
  // memory now and cleared (only the bytes that are set, so no page is touched that was not), so
  // that nothing above the image differs from a heap that never had the probe.
  for (let i = probe + PROBE_BYTES - 16, end = Math.min(all.length, probe + PROBE_BYTES + TRIM_REACH); i < end; i++) if (all[i] !== 0) all[i] = 0;
  let heapEnd = probe;
  for (let i = Math.min(all.length, probe + TRIM_REACH) - 1; i >= probe; i--) {
    if (all[i] !== 0) {
      heapEnd = i + 1;
      break;
    }
  }
  const data = all.slice(0, layout.dataEnd);
  // 16 bytes more than the last one written: the rest of that header word, and the chunk header
  // just below the probe's address is inside anyway.
  const heap = all.slice(layout.heapBase, heapEnd + 16);

  const cached = ["_undefined", "_null", "_false", "_true", "_global", "_BigInt", "_Symbol", "_SymbolIterator", "_SymbolAsyncIterator"].map((key) => [key, ctxBag[key]] as const);
  const contextLifetimes = [...(contextScope.value as Set<unknown>)];
  const runtimeLifetimes = [...(runtimeScope.value as Set<unknown>)];
  const refs = { nextId: hostRefs.nextId, freelist: [...(hostRefs.freelist as unknown[])], groups: [...(hostRefs.groups as Map<unknown, Map<unknown, unknown>>)].map(([id, group]) => [id, new Map(group)] as const) };
  const interruptHandler = rtBag["interruptHandler"];
  const seed = new BigUint64Array(1);

  return {
    sandbox,
    dataBytes: data.length,
    heapBytes: heap.length,
    restore() {
      const target = bytes();
      target.set(data, 0);
      target.set(heap, layout.heapBase);
      do crypto.getRandomValues(seed);
      while (seed[0] === 0n);
      new DataView(memory.buffer).setBigUint64(seedAddress, seed[0] ?? 1n, true);
      for (const [key, value] of cached) ctxBag[key] = value;
      for (const [set, members] of [
        [contextScope.value as Set<unknown>, contextLifetimes],
        [runtimeScope.value as Set<unknown>, runtimeLifetimes],
      ] as const) {
        set.clear();
        for (const member of members) set.add(member);
      }
      hostRefs.nextId = refs.nextId;
      hostRefs.freelist = [...refs.freelist];
      hostRefs.groups = new Map(refs.groups.map(([id, group]) => [id, new Map(group)]));
      rtBag["interruptHandler"] = interruptHandler;
      sandbox.hooks = undefined;
    },
  };
}
