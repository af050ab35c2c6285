import { z } from "zod";
import { limitsSchema } from "../../config/config-file.js";
import { hasUnsafeDisplayChars } from "../../terminal/display.js";
import { McpvmError } from "../../util/errors.js";

export class ProfileError extends McpvmError<"PROFILE_UNKNOWN" | "PROFILE_INVALID" | "PROFILE_SERVER_UNKNOWN" | "PROFILE_NONE_GIVEN"> {}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const profileNameSchema = z.string().regex(NAME, "profile names are letters, digits, _ . and - (at most 64)");

/**
 * An override lands in `mcpServers.<name>.env`, so its name follows the server schema's rules
 * (src/mcp/config/schema.ts): refused here, not after it has made config.json invalid.
 */
const envNameSchema = z
  .string()
  .regex(/^[^=\0]+$/, 'environment variable names cannot be empty or contain "="')
  .refine((name) => !hasUnsafeDisplayChars(name), "environment variable names cannot contain control, bidi or invisible characters");

/**
 * One profile, as written in config.json `profiles.<name>`. A profile is a named preset that
 * `profile apply` writes into the live configuration; several applied together are stacked.
 */
export const profileSchema = z
  .object({
    description: z.string().max(300).optional(),
    /** Sandbox limits; when stacked, the strictest value of each wins unless `limitsMode` says otherwise. */
    limits: limitsSchema.optional(),
    /** "override": this profile's limits win even over stricter ones (e.g. a long-running profile). */
    limitsMode: z.enum(["strictest", "override"]).optional(),
    /** Plugins to enable. Absent: plugin switches are left as they are; `[]` turns every plugin off. */
    plugins: z.array(z.string().min(1)).optional(),
    /** The MCP servers this profile enables; every configured server not named by an applied profile is disabled. */
    mcpServers: z.array(z.string().min(1)).default([]),
    /** Per-server environment overrides, merged over the server's own `env` while the profile is applied. */
    env: z.record(z.string().min(1), z.record(envNameSchema, z.string())).optional(),
  })
  .strict();

export type Profile = z.output<typeof profileSchema>;
export type ProfileInput = z.input<typeof profileSchema>;

export const userProfilesSchema = z.record(profileNameSchema, profileSchema);

export interface NamedProfile {
  readonly name: string;
  readonly source: "built-in" | "user";
  readonly profile: Profile;
}
