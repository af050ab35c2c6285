import { z } from "zod";
import { McpvmError } from "../util/errors.js";
import { DEFAULT_LIMITS, type RunLimits } from "./types.js";

const MiB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Far above any real script (1,000 × the default); a bound so a typo cannot make the budget meaningless. */
export const MAX_TOOL_CALLS = 1_000_000;

/** The single source of truth for what a limit may be; `RunLimits` in types.ts must stay in step. */
export const RunLimitsSchema = z
  .object({
    cpuMs: z.number().int().min(1).max(DAY_MS),
    wallMs: z.number().int().min(1).max(DAY_MS),
    // Below 1 MiB the guest bootstrap itself does not fit; wasm32 cannot address more than 2 GiB usefully.
    memoryBytes: z.number().int().min(MiB).max(2048 * MiB),
    outputBytes: z.number().int().min(1).max(256 * MiB),
    toolCalls: z.number().int().min(1).max(MAX_TOOL_CALLS).optional(),
  })
  .strict() satisfies z.ZodType<RunLimits>;

export const PartialRunLimitsSchema = RunLimitsSchema.partial().strict();

export type ResolvedRunLimits = z.infer<typeof RunLimitsSchema>;

export class InvalidLimitsError extends McpvmError<"INVALID_LIMITS"> {}

// Runs that set no limits of their own get their engine's defaults, validated once per defaults
// object (frozen, so the result cannot go stale) instead of on every run.
const resolvedDefaults = new WeakMap<RunLimits, RunLimits>();

/** Fills the unset limits from `defaults` and validates the result; throws InvalidLimitsError. */
export function resolveLimits(partial: Partial<RunLimits> | undefined, defaults: RunLimits = DEFAULT_LIMITS): RunLimits {
  if (partial === undefined && Object.isFrozen(defaults)) {
    const cached = resolvedDefaults.get(defaults);
    if (cached !== undefined) return cached;
    const resolved = resolveLimits({}, defaults);
    resolvedDefaults.set(defaults, resolved);
    return resolved;
  }
  const given = PartialRunLimitsSchema.safeParse(dropUndefined(partial ?? {}));
  if (!given.success) throw invalid(given.error);
  const merged = RunLimitsSchema.safeParse({ ...defaults, ...given.data });
  if (!merged.success) throw invalid(merged.error);
  return Object.freeze(merged.data);
}

function dropUndefined(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

function invalid(error: z.ZodError): InvalidLimitsError {
  const details = error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "limits"}: ${issue.message}`)
    .join("; ");
  return new InvalidLimitsError("INVALID_LIMITS", `Invalid sandbox limits (${details})`);
}
