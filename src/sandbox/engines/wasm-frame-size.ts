import { setFlagsFromString } from "node:v8";

// Node 20's V8 (11.3) gives a huge wasm function, once hot enough for TurboFan, its "mid-tier" register
// allocator, which keeps every value in its own stack slot. QuickJS's interpreter loop in the asyncify
// build is such a function: each guest call level then takes ~41 KB of the thread's native stack, so a
// guest recursing ~185 deep on an 8 MB worker stack overflowed it (an error the guest cannot catch)
// long before QuickJS's own stack limit (~2,500 deep, a catchable RangeError). The full allocator keeps
// the frame small; it costs only background compile time. V8 12 (Node 22) removed the flag along with
// the mid-tier allocator, and prints an error for an unknown flag, so it is set only where it exists.
const FLAG = "--no-turbo-use-mid-tier-regalloc-for-huge-functions";
const LAST_V8_MAJOR_WITH_FLAG = 11;

let applied = false;

/** Sets, once per process and before QuickJS's wasm is compiled, the V8 flag that keeps its frames small. */
export function keepOptimizedWasmFramesSmall(v8Version: string = process.versions.v8): boolean {
  if (applied) return true;
  const major = Number.parseInt(v8Version.split(".")[0] ?? "", 10);
  if (!Number.isFinite(major) || major > LAST_V8_MAJOR_WITH_FLAG) return false;
  setFlagsFromString(FLAG);
  applied = true;
  return true;
}
