import { errorMessage } from "../../../util/errors.js";
import { type AddonLocation, loadHyperlightAddon } from "./addon.js";
import type { HyperlightApi } from "./addon-types.js";
import { addonErrorCode, type HyperlightErrorCode } from "./errors.js";

/** `code` says which step failed (not installed, tampered, load, boot); `reason` is the real error text. */
export type ProbeResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly code: HyperlightErrorCode };

export interface ProbeOptions extends AddonLocation {
  /** A VM that has not answered by then counts as not booting. */
  readonly timeoutMs?: number;
}

const PROBE_HEAP_BYTES = 4 * 1024 * 1024;
const DEFAULT_PROBE_TIMEOUT_MS = 15_000;
const probes = new Map<string, Promise<ProbeResult>>();

/**
 * Loads the addon and boots a tiny VM that runs a trivial handler. The reason is the addon's own
 * error text (on nested hypervisors: "… Unknown KVM VCPU exit …"), so `mcpvm doctor` can show it.
 * Cached per process: booting is the expensive part and the answer does not change.
 */
export function probeHyperlight(options: ProbeOptions = {}): Promise<ProbeResult> {
  const key = JSON.stringify([options.vendorDir, options.manifestPath, options.sourceBuildDir, options.platform]);
  let pending = probes.get(key);
  if (pending === undefined) {
    pending = runProbe(options);
    probes.set(key, pending);
  }
  return pending;
}

async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
  const addon = await loadHyperlightAddon(options);
  if (!addon.ok) return { ok: false, reason: addon.error.message, code: addon.error.code };
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await untilAborted(bootProbeVm(addon.api), controller.signal, `the probe VM did not answer within ${timeoutMs} ms`);
  } finally {
    clearTimeout(timer);
  }
}

async function bootProbeVm(api: HyperlightApi): Promise<ProbeResult> {
  let stage = "build";
  try {
    const proto = await new api.SandboxBuilder().setHeapSize(PROBE_HEAP_BYTES).build();
    proto.hostModule("probe").register("double", (n: unknown) => (typeof n === "number" ? n * 2 : null));
    stage = "loadRuntime";
    const runtime = await proto.loadRuntime();
    runtime.addHandler("probe", 'import * as p from "host:probe";\nfunction handler(event) { return { answer: p.double(event.n) }; }');
    stage = "getLoadedSandbox";
    const loaded = await runtime.getLoadedSandbox();
    stage = "callHandler";
    const result = await loaded.callHandler("probe", { n: 21 }, { wallClockTimeoutMs: 5_000 });
    await loaded.dispose();
    const answer = typeof result === "object" && result !== null ? (result as { answer?: unknown }).answer : undefined;
    if (answer !== 42) return { ok: false, reason: `the probe VM booted but answered ${JSON.stringify(result)} instead of {"answer":42}`, code: "HYPERLIGHT_BOOT_FAILED" };
    return { ok: true };
  } catch (error) {
    const code = addonErrorCode(error);
    return { ok: false, reason: `probe VM failed at ${stage}${code === undefined ? "" : ` [${code}]`}: ${errorMessage(error)}`, code: "HYPERLIGHT_BOOT_FAILED" };
  }
}

/** Resolves with `work`'s result, or with a failure once `signal` aborts (timer cleared by the caller). */
function untilAborted(work: Promise<ProbeResult>, signal: AbortSignal, reason: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const onAbort = (): void => resolve({ ok: false, reason, code: "HYPERLIGHT_BOOT_FAILED" });
    signal.addEventListener("abort", onAbort, { once: true });
    void work.then((result) => {
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    });
  });
}
