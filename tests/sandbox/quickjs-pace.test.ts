import { describe, expect, it } from "vitest";
import * as core from "quickjs-emscripten-core";
import asyncifyVariant from "@jitl/quickjs-wasmfile-release-asyncify";
import syncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { meterWasmHeap, type GrowableMemory } from "../../src/sandbox/engines/quickjs-heap.js";

/**
 * The interrupt pace (src/sandbox/engines/quickjs-heap.ts, InterruptPace) writes QuickJS's interrupt
 * counter at a fixed offset in the context. Checked here against both builds the engines load, by what
 * the word does: at every check of the handler it holds the counter's initial value (10,000), and writing
 * 1 there makes the next check come one step later. A library update that moves the field fails this.
 */
const COUNTER_OFFSET = 232;
const COUNTER_INIT = 10_000;
const LOOP = "(function () { let s = 0; for (let i = 0; i < 20000; i++) s += i; return s; })()";

async function checksOfLoop(module: core.QuickJSWASMModule, writeOne: boolean): Promise<{ checks: number; wordAtChecks: Set<number> }> {
  const runtime = module.newRuntime();
  const context = runtime.newContext();
  const address = (context as unknown as { ctx: { value: number } }).ctx.value + COUNTER_OFFSET;
  const heap = (): DataView => new DataView((module as unknown as { module: { HEAPU8: Uint8Array } }).module.HEAPU8.buffer);
  let checks = 0;
  const wordAtChecks = new Set<number>();
  runtime.setInterruptHandler(() => {
    checks++;
    wordAtChecks.add(heap().getInt32(address, true));
    if (writeOne) heap().setInt32(address, 1, true);
    return false;
  });
  context.unwrapResult(context.evalCode(LOOP)).dispose();
  context.dispose();
  runtime.dispose();
  return { checks, wordAtChecks };
}

describe("QuickJS's interrupt counter, as the interrupt pace finds it", () => {
  it.each([
    ["sync", () => core.newQuickJSWASMModuleFromVariant(syncVariant as unknown as core.QuickJSSyncVariant)],
    ["asyncify", () => core.newQuickJSAsyncWASMModuleFromVariant(asyncifyVariant as unknown as core.QuickJSAsyncVariant)],
  ])("is the word at offset 232 of the context in the %s build", async (_build, load) => {
    const module = (await load()) as core.QuickJSWASMModule;
    const plain = await checksOfLoop(module, false);
    const paced = await checksOfLoop(module, true);
    expect([...plain.wordAtChecks]).toEqual([COUNTER_INIT]);
    expect([...paced.wordAtChecks]).toEqual([COUNTER_INIT]);
    // 20,000 turns are a few counted steps each: a handful of checks as built, one per step or two when paced.
    expect(plain.checks).toBeLessThan(20);
    expect(paced.checks).toBeGreaterThan(20_000);
  });
});

describe("the interrupt pace", () => {
  const context = 4096;
  // Node's type definitions declare WebAssembly's types but not the value.
  const Memory = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => GrowableMemory } }).WebAssembly.Memory;
  const heapWith = (value: number): { memory: GrowableMemory; word: () => number; pace: ReturnType<ReturnType<typeof meterWasmHeap>["paceChecks"]> } => {
    const memory = new Memory({ initial: 1 });
    const view = (): DataView => new DataView(memory.buffer);
    view().setInt32(context + COUNTER_OFFSET, value, true);
    const pace = meterWasmHeap(memory, {} as never).paceChecks(context);
    return { memory, word: () => view().getInt32(context + COUNTER_OFFSET, true), pace };
  };

  it("starts a run with a check after one step, and spaces checks by how long the last steps took", () => {
    const heap = heapWith(0);
    heap.pace.start(0);
    expect(heap.word()).toBe(1);
    // QuickJS resets the counter before each check; one step took 50 ms: the next check after one step again.
    new DataView(heap.memory.buffer).setInt32(context + COUNTER_OFFSET, COUNTER_INIT, true);
    heap.pace.check(50);
    expect(heap.word()).toBe(1);
    // One step in 0.00001 ms: cheap steps go back to QuickJS's own count (nothing written).
    new DataView(heap.memory.buffer).setInt32(context + COUNTER_OFFSET, COUNTER_INIT, true);
    heap.pace.check(50.00001);
    expect(heap.word()).toBe(COUNTER_INIT);
  });

  it("never writes a word that does not behave as the counter", () => {
    const outOfRange = heapWith(123_456);
    outOfRange.pace.start(0);
    outOfRange.pace.check(10);
    expect(outOfRange.word()).toBe(123_456);
    // Written at the start, but not reset by the check that follows: left alone from then on.
    const notReset = heapWith(7);
    notReset.pace.start(0);
    expect(notReset.word()).toBe(1);
    notReset.pace.check(50);
    notReset.pace.start(60);
    notReset.pace.check(120);
    expect(notReset.word()).toBe(1);
  });
});
