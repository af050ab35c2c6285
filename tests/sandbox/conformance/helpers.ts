import { expect } from "vitest";
import type { GuestErrorInfo, RunRequest, RunResult, SandboxEngine, SandboxErrorCode } from "../../../src/sandbox/types.js";

export type EngineRef = () => SandboxEngine;

/** Small limits keep every conformance case fast; cases that test a limit lower it further. */
export const TEST_LIMITS = { cpuMs: 2_000, wallMs: 8_000, memoryBytes: 32 * 1024 * 1024, outputBytes: 64 * 1024 };

/**
 * For a test of the memory limit: the product's default CPU and wall limits instead of the suite's tight ones, so
 * that only the memory limit can end the run. Filling 8 MB with small objects took QuickJS 1-1.8 s of wall time in
 * a process whose wasm was still on baseline code, at load 7 on 2 cores, and the CPU limit counts the guest's
 * running time as the clock sees it: the suite's 2 s ended it first (CPU_LIMIT) on a loaded machine.
 */
export const MEMORY_TEST_LIMITS = { cpuMs: 10_000, wallMs: 30_000 };

export function run(engine: SandboxEngine, code: string, request: Omit<RunRequest, "code"> = {}): Promise<RunResult> {
  return engine.run({ ...request, code, limits: { ...TEST_LIMITS, ...request.limits } });
}

export function valueOf(result: RunResult): unknown {
  if (!result.ok) expect.fail(`expected the run to succeed, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

export function errorOf(result: RunResult, code: SandboxErrorCode): GuestErrorInfo {
  if (result.ok) expect.fail(`expected ${code}, but the run succeeded with ${JSON.stringify(result.value)}`);
  expect(result.error.code, result.error.message).toBe(code);
  return result.error;
}

/** The engine still serves an ordinary run correctly after whatever the previous case did. */
export async function expectHealthy(engine: SandboxEngine): Promise<void> {
  const result = await run(engine, "globalThis.mark = (globalThis.mark ?? 0) + 1; return [mark, 6 * 7];");
  expect(valueOf(result)).toEqual([1, 42]);
}

/** Resolves after `ms`, or early with false when the signal aborts (so host functions can end promptly). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Host paths and Node internals that must never appear in anything the guest can see. */
export const HOST_TRACES = [/node:internal/, /node_modules/, /file:\/\//, /\/work\//, /\.ts:\d+/];

export function expectNoHostTraces(text: string): void {
  for (const pattern of HOST_TRACES) expect(text).not.toMatch(pattern);
}
