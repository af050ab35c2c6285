import { z } from "zod";
import { errorMessage } from "../../../util/errors.js";
import type { EngineOutcome } from "../../host/outcome.js";
import type { HyperlightCallStats } from "./addon-types.js";
import { addonErrorCode } from "./errors.js";

/** Failures the handler wrapper (guest.ts) reports itself, before the bootstrap's runner settles. */
const WrapperFailureSchema = z.object({
  stage: z.enum(["bootstrap", "prelude", "compile"]),
  error: z.object({ name: z.string().optional(), message: z.string(), stack: z.string().optional() }),
});
const WRAPPER_PREFIX = '{"stage":';

/**
 * What the handler returned, as an engine-neutral outcome. The bootstrap's envelope always starts
 * with `{"ok":`, so a wrapper failure (which starts with `{"stage":`) cannot be forged by a result.
 */
export function outcomeFromReply(reply: unknown): EngineOutcome {
  if (typeof reply !== "string") return { kind: "failure", message: "the guest handler returned no outcome envelope" };
  if (!reply.startsWith(WRAPPER_PREFIX)) return { kind: "envelope", text: reply };
  const parsed = WrapperFailureSchema.safeParse(safeJson(reply));
  if (!parsed.success) return { kind: "failure", message: "the guest handler returned a malformed failure" };
  const { stage, error } = parsed.data;
  if (stage === "prelude") return { kind: "prelude", error };
  if (stage === "compile") return { kind: "syntax", message: error.message };
  return { kind: "failure", message: `the guest bootstrap failed: ${error.message}` };
}

/**
 * Maps a rejected `callHandler` to an outcome. Our own wall timer and cancellation are decided by
 * the caller first; what remains is the addon's CPU monitor, its wall backstop, and a guest that
 * died. Classification is by the addon's `code` and the monitor name it reports, never by text.
 */
export function outcomeFromCallError(error: unknown, stats: HyperlightCallStats | undefined): EngineOutcome {
  const code = addonErrorCode(error);
  const detail = errorMessage(error);
  if (code === "ERR_CANCELLED") {
    return { kind: "limit", limit: stats?.terminatedBy === "wall-clock" ? "wallMs" : "cpuMs" };
  }
  // The guest's allocator aborts the VM when the heap (sized from memoryBytes) is exhausted.
  if (code === "ERR_GUEST_ABORT" || code === "ERR_POISONED") {
    return { kind: "limit", limit: "memoryBytes", detail: `the guest VM aborted (${detail})` };
  }
  return { kind: "failure", message: `the micro-VM failed${code === undefined ? "" : ` [${code}]`}: ${detail}` };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
