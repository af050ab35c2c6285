import type { HyperlightEngineOptions } from "./engines/hyperlight/engine.js";
import { createQuickJsEngine, type QuickJsEngineOptions } from "./engines/quickjs.js";
import type { QuickJsInlineEngineOptions } from "./engines/quickjs-inline.js";
import type { EngineChoice, EngineSelection, SandboxEngine } from "./types.js";

export interface CreateEngineOptions {
  readonly hyperlight?: HyperlightEngineOptions;
  readonly quickjs?: QuickJsEngineOptions;
  readonly quickjsInline?: QuickJsInlineEngineOptions;
}

export interface CreatedEngine {
  readonly engine: SandboxEngine;
  readonly selection: EngineSelection;
}

/**
 * Resolves an engine choice. `auto` takes hyperlight only when its addon loads and a probe VM
 * boots (probe cached per process), else quickjs, recording why. An explicit `hyperlight` that
 * cannot boot rejects with a HyperlightError whose code says which step failed and whose
 * `data.reason` is the probe's own text; it never silently becomes quickjs. The in-thread engine and
 * the Hyperlight probe are imported when chosen: a process loads only the engine it runs.
 */
export async function createEngine(choice: EngineChoice, options: CreateEngineOptions = {}): Promise<CreatedEngine> {
  if (choice === "quickjs") {
    return {
      engine: await createQuickJsEngine(options.quickjs),
      selection: { kind: "quickjs", requested: choice, reason: "quickjs was requested", unavailable: {} },
    };
  }
  if (choice === "quickjs-inline") {
    return {
      engine: await (await import("./engines/quickjs-inline.js")).createQuickJsInlineEngine(options.quickjsInline),
      selection: { kind: "quickjs-inline", requested: choice, reason: "quickjs-inline was requested", unavailable: {} },
    };
  }
  const probe = await (await import("./engines/hyperlight/probe.js")).probeHyperlight(options.hyperlight);
  if (probe.ok) {
    return {
      // Loaded only when a probe VM booted: it transforms every script with the parser (no plain-script path).
      engine: await (await import("./engines/hyperlight/engine.js")).createHyperlightEngine(options.hyperlight),
      selection: {
        kind: "hyperlight",
        requested: choice,
        reason: choice === "auto" ? "the Hyperlight addon loaded and a probe micro-VM booted" : "hyperlight was requested and a probe micro-VM booted",
        unavailable: {},
      },
    };
  }
  if (choice === "hyperlight") {
    const { HyperlightError } = await import("./engines/hyperlight/errors.js");
    throw new HyperlightError(probe.code, `The hyperlight engine was requested but cannot be used: ${probe.reason}`, {
      data: { reason: probe.reason },
    });
  }
  return {
    engine: await createQuickJsEngine(options.quickjs),
    selection: {
      kind: "quickjs",
      requested: choice,
      reason: `hyperlight is unavailable (${probe.reason}), so the portable quickjs engine was chosen`,
      unavailable: { hyperlight: probe.reason },
    },
  };
}
