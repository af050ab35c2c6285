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

// A host resolves the same limits for every run (config.json's, plus the same flags), twice a run:
// validated once per distinct set of numbers and defaults object (frozen, so a result cannot go
// stale) instead of through zod on every run. Only numeric values are remembered; anything else
// (and every invalid set) is validated, and thrown about, every time.
const LIMIT_KEYS: readonly (keyof RunLimits)[] = ["cpuMs", "wallMs", "memoryBytes", "outputBytes", "toolCalls"];
const MAX_REMEMBERED = 64;
const resolvedByDefaults = new WeakMap<RunLimits, Map<string, RunLimits>>();

/** Fills the unset limits from `defaults` and validates the result; throws InvalidLimitsError. */
export function resolveLimits(partial: Partial<RunLimits> | undefined, defaults: RunLimits = DEFAULT_LIMITS): RunLimits {
  const key = Object.isFrozen(defaults) ? rememberedKey(partial) : undefined;
  let remembered: Map<string, RunLimits> | undefined;
  if (key !== undefined) {
    remembered = resolvedByDefaults.get(defaults);
    if (remembered === undefined) resolvedByDefaults.set(defaults, (remembered = new Map()));
    const cached = remembered.get(key);
    if (cached !== undefined) return cached;
  }
  const given = PartialRunLimitsSchema.safeParse(dropUndefined(partial ?? {}));
  if (!given.success) throw invalid(given.error);
  const merged = RunLimitsSchema.safeParse({ ...defaults, ...given.data });
  if (!merged.success) throw invalid(merged.error);
  const resolved = Object.freeze(merged.data);
  if (key !== undefined && remembered !== undefined) {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(key, resolved);
  }
  return resolved;
}

/** The limits as a key when they are plain numbers of known names (or absent), else undefined. */
function rememberedKey(partial: Partial<RunLimits> | undefined): string | undefined {
  if (partial === undefined) return "";
  for (const name of Object.keys(partial)) if (!(LIMIT_KEYS as readonly string[]).includes(name)) return undefined;
  let key = "";
  for (const name of LIMIT_KEYS) {
    const value: unknown = partial[name];
    if (value !== undefined && typeof value !== "number") return undefined;
    key += `${value ?? ""}|`;
  }
  return key;
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
