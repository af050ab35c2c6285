import { describe, expect, it } from "vitest";
import * as core from "quickjs-emscripten-core";
import asyncifyVariant from "@jitl/quickjs-wasmfile-release-asyncify";
import syncVariant from "@jitl/quickjs-wasmfile-release-sync";

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
