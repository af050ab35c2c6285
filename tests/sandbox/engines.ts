import { createHyperlightEngine } from "../../src/sandbox/engines/hyperlight/engine.js";
import { probeHyperlight } from "../../src/sandbox/engines/hyperlight/probe.js";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import type { EngineKind, SandboxEngine } from "../../src/sandbox/types.js";

export interface ConformanceEngine {
  readonly kind: EngineKind;
  /** How the suite names this entry when it is not just the kind (a variant of an engine). */
  readonly label?: string;
  /** Present when the engine can boot on this machine. */
  readonly create?: () => Promise<SandboxEngine>;
  /** Why the engine cannot run here (its probe's own words); the suite reports it as skipped. */
  readonly unavailableReason?: string;
}

/** Every engine the conformance suite runs against. */
export async function conformanceEngines(): Promise<ConformanceEngine[]> {
  // Hyperlight runs where its addon is installed and a probe VM boots; elsewhere the probe's reason is reported.
  const probe = await probeHyperlight();
  const hyperlight: ConformanceEngine = probe.ok
    ? { kind: "hyperlight", create: () => createHyperlightEngine({ maxIdleVms: 2 }) }
    : { kind: "hyperlight", unavailableReason: probe.reason };
  return [
    // Named explicitly: the default mode is shared (and MCPVM_QUICKJS_WORKERS can change it), while `mcpvm run` uses
    // thread mode, one run per worker thread.
    { kind: "quickjs", label: "quickjs (thread mode)", create: () => createQuickJsEngine({ workerMode: "thread", warmWorkers: 1, maxWorkers: 4 }) },
    // The worker engine's other way to get a fresh sandbox: built and freed for every run, no memory image.
    { kind: "quickjs", label: "quickjs (thread mode, sandboxes built, no image)", create: () => createQuickJsEngine({ workerMode: "thread", warmWorkers: 1, maxWorkers: 4, sandboxSnapshots: false }) },
    // Several runs per worker thread: the in-thread engine's asyncify runs inside the worker threads.
    { kind: "quickjs", label: "quickjs (shared workers)", create: () => createQuickJsEngine({ workerMode: "shared", warmWorkers: 1, maxWorkers: 4 }) },
    { kind: "quickjs", label: "quickjs (shared workers, no image)", create: () => createQuickJsEngine({ workerMode: "shared", warmWorkers: 1, maxWorkers: 4, sandboxSnapshots: false }) },
    { kind: "quickjs-inline", create: () => createQuickJsInlineEngine({ maxInstances: 4 }) },
    { kind: "quickjs-inline", label: "quickjs-inline (sandboxes built, no image)", create: () => createQuickJsInlineEngine({ maxInstances: 4, sandboxSnapshots: false }) },
    hyperlight,
  ];
}
