import { afterAll, beforeAll } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { sharedPlacements, type SharedThreadPlacement } from "../../src/sandbox/engines/quickjs-shared-placement.js";
import type { SandboxEngine } from "../../src/sandbox/types.js";

export interface OwnSharedEngine {
  readonly engine: SandboxEngine;
  readonly placement: SharedThreadPlacement;
}

/**
 * A shared-mode engine on threads of the suite's own, made before its tests and disposed after them: placements are
 * keyed by worker options, so a memory cap no other suite uses keeps other suites' runs off its threads (the suites
 * count threads and runs on them).
 */
export function useOwnSharedEngine(options: { readonly maxWasmMemoryBytes: number; readonly maxWorkers: number }): OwnSharedEngine {
  let engine: SandboxEngine | undefined;
  let placement: SharedThreadPlacement | undefined;
  beforeAll(async () => {
    engine = await createQuickJsEngine({ workerMode: "shared", maxThreads: 1, ...options });
    placement = sharedPlacements().find((candidate) => candidate.options.maxWasmMemoryBytes === options.maxWasmMemoryBytes);
    if (placement === undefined) throw new Error("no placement for the suite's engine");
  });
  afterAll(async () => {
    await engine?.dispose();
    await placement?.dispose();
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the suite's engine is used before its beforeAll ran");
    return value;
  };
  return {
    get engine() {
      return made(engine);
    },
    get placement() {
      return made(placement);
    },
  };
}
