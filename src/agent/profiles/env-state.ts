import { join } from "node:path";
import { z } from "zod";
import { isDeepStrictEqual } from "node:util";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";

/**
 * What profile env overrides replaced, so applying another set of profiles can put each server's
 * own env back first. A server whose env was edited by hand since is left alone (the edit wins).
 */
const envRecord = z.record(z.string(), z.string());
export const profileStateSchema = z
  .object({
    version: z.literal(1),
    // `previous`: while an apply is under way, the env it is replacing (see applyProfiles).
    env: z.record(z.string(), z.object({ base: envRecord.nullable(), applied: envRecord, previous: envRecord.optional() }).strict()),
  })
  .strict();
export type ProfileState = z.infer<typeof profileStateSchema>;

export function profileStateStore(home: string): JsonFileStore<ProfileState> {
  return new JsonFileStore(join(home, "profile-state.json"), profileStateSchema, () => ({ version: 1 as const, env: {} }), "the env values profile overrides replaced", STATE_FILE_LIMITS.small);
}

type Entries = Record<string, Record<string, unknown>>;

/** Puts back each server's env as it was before the previous profile overrides (pure; mutates `servers`). */
export function restoreEnv(servers: Entries, state: ProfileState): void {
  for (const [name, saved] of Object.entries(state.env)) {
    const entry = servers[name];
    const current = entry?.env ?? null;
    if (entry === undefined || !(isDeepStrictEqual(current, saved.applied) || (saved.previous !== undefined && isDeepStrictEqual(current, saved.previous)))) continue;
    if (saved.base === null) delete entry.env;
    else entry.env = { ...saved.base };
  }
}

/** Merges the overrides over each server's env and returns the state needed to undo it. */
export function overrideEnv(servers: Entries, overrides: Readonly<Record<string, Readonly<Record<string, string>>>>): ProfileState {
  const state: ProfileState = { version: 1, env: {} };
  for (const [name, vars] of Object.entries(overrides)) {
    const entry = servers[name];
    if (entry === undefined) continue;
    const base = (entry.env as Record<string, string> | undefined) ?? null;
    const applied = { ...(base ?? {}), ...vars };
    entry.env = applied;
    state.env[name] = { base: base === null ? null : { ...base }, applied };
  }
  return state;
}

/**
 * What to record before config.json is rewritten: the new overrides, each with the env it replaces
 * (`previous`), and the old entries of servers no longer overridden. Whichever config.json a crash
 * leaves (the old or the new), the next apply can then put every server's own env back.
 */
export function intendedState(current: ProfileState, planned: ProfileState): ProfileState {
  const env: ProfileState["env"] = { ...current.env };
  for (const [name, entry] of Object.entries(planned.env)) {
    const old = current.env[name];
    env[name] = old === undefined ? entry : { ...entry, previous: old.applied };
  }
  return { version: 1, env };
}
