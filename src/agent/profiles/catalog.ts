import { describeZodIssues, type ConfigFile } from "../../config/config-file.js";
import { builtinProfiles } from "./builtin.js";
import { ProfileError, userProfilesSchema, type NamedProfile } from "./schema.js";

/** Built-in profiles plus config.json `profiles`; a user profile with a built-in's name replaces it. */
export function availableProfiles(config: ConfigFile, configFile: string): NamedProfile[] {
  const parsed = userProfilesSchema.safeParse(config.profiles ?? {});
  if (!parsed.success) {
    throw new ProfileError("PROFILE_INVALID", describeZodIssues(configFile, parsed.error.issues.map((i) => ({ ...i, path: ["profiles", ...i.path] }))));
  }
  const user = Object.entries(parsed.data).map(([name, profile]) => ({ name, source: "user" as const, profile }));
  const builtin = builtinProfiles().filter((b) => !user.some((u) => u.name === b.name));
  return [...builtin, ...user];
}

export function findProfiles(names: readonly string[], available: readonly NamedProfile[]): NamedProfile[] {
  if (names.length === 0) throw new ProfileError("PROFILE_NONE_GIVEN", "Name at least one profile to apply (e.g. `default`).");
  return names.map((name) => {
    const found = available.find((p) => p.name === name);
    if (found === undefined) {
      throw new ProfileError("PROFILE_UNKNOWN", `No profile named "${name}" (available: ${available.map((p) => p.name).join(", ")}). Define it under "profiles" in config.json.`, {
        data: { profile: name },
      });
    }
    return found;
  });
}

/** The profiles config.json says are applied, or none when `activeProfiles` is unset. */
export function activeProfiles(config: ConfigFile): readonly string[] {
  return config.activeProfiles ?? [];
}
