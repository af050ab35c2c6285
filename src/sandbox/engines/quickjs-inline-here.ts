import * as fs from "node:fs";
import { logEntryBytes } from "../host/output-budget.js";
import { runEnded, runEndedFor } from "../host/run-ended.js";
import { RunModules } from "../host/run-modules.js";
import type { InlineInstance } from "./quickjs-inline-adapter.js";
import { runAsyncify } from "./quickjs-inline-run.js";
import type { AsyncifyRunParts, InlineRunHandle, InlineRunPlan, InlineRunResult } from "./quickjs-inline-run-parts.js";
import type { InlineSandbox } from "./quickjs-inline-sandbox.js";
import { timeSlices } from "./quickjs-yield.js";
import { createPreemptionMeter } from "./preemption-meter.js";

// The in-thread engine's run: runAsyncify (quickjs-inline-run.ts, also embedded by source text in the shared worker)
// given the parts of this thread.
/** runAsyncify on this thread, its host calls answered by the run's own RunModules; `sliceMs` as QuickJsInlineEngineOptions.sliceMs. */
export function runInline(
  instance: InlineInstance,
  sandbox: InlineSandbox,
  plan: InlineRunPlan,
  sliceMs: number,
  onStart?: (handle: InlineRunHandle) => void,
): Promise<InlineRunResult> {
  // Made at the run's first host call: most trivial runs make none.
  let modules: RunModules | undefined;
  const parts: AsyncifyRunParts = {
    engine: "quickjs-inline",
    calls: { call: (request, context, events) => (modules ??= new RunModules(plan.modules, { ...plan.limits, code: plan.code })).call(request, context, events) },
    logEntryBytes,
    runEnded,
    runEndedFor,
    slices: timeSlices(sliceMs),
    preemptionMeter: () => createPreemptionMeter(fs),
  };
  return runAsyncify(instance, sandbox, plan, parts, onStart);
}
