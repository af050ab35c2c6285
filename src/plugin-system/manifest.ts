import { readFile } from "node:fs/promises";
import { z } from "zod";
import { describeZodIssues, formatJsonPath } from "../config/config-file.js";
import { parseJsonSafe } from "../util/json.js";
import { PluginError } from "./errors.js";

/** plugins/<name>/plugin.json. This schema is the single source of truth for the manifest format. */

export const PLUGIN_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/** Module names starting with these are reserved for mcpvm (`mcp-<server>` modules of the mcp plugin). */
export const RESERVED_MODULE_PREFIXES: readonly string[] = ["mcp"];

export const capabilitySchema = z.enum(["fs.read", "fs.write", "network", "process", "env"]);
export type Capability = z.infer<typeof capabilitySchema>;

const nameSchema = z
  .string()
  .max(64, "must be at most 64 characters")
  .regex(PLUGIN_NAME_PATTERN, "must match /^[a-z][a-z0-9-]*$/ (lower-case letters, digits, hyphens; starts with a letter)")
  .refine((name) => name !== "constructor" && name !== "prototype", "is a reserved name");

/** Function names become guest properties; checked per key so the message names the key and the rule. */
function functionNameProblem(name: string): string | undefined {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return "must be a JavaScript identifier";
  if (["__proto__", "constructor", "prototype", "then"].includes(name)) return "is a reserved name (__proto__, constructor, prototype, then)";
  return undefined;
}

/** A path inside the plugin folder: relative, forward slashes, no `..` segment. */
const relativeFileSchema = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith("/") && !/^[A-Za-z]:/.test(path) && !path.includes("\\"), "must be a relative path with forward slashes")
  .refine((path) => !path.split("/").includes(".."), "must stay inside the plugin folder (no '..')");

export const hostModuleSchema = z
  .object({
    name: nameSchema,
    description: z.string().min(1).max(2000),
    functions: z.record(z.string(), z.string().min(1).max(500, "a function summary is one line (at most 500 characters)")).superRefine((functions, ctx) => {
      for (const name of Object.keys(functions)) {
        const problem = functionNameProblem(name);
        if (problem !== undefined) ctx.addIssue({ code: "custom", path: [name], message: problem });
      }
    }),
  })
  .strict();

export const pluginManifestSchema = z
  .object({
    $schema: z.string().optional(),
    name: nameSchema,
    version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, "must be a semantic version such as 1.0.0"),
    description: z.string().min(1).max(2000),
    entry: relativeFileSchema.refine((path) => /\.(?:ts|mts|js|mjs)$/.test(path), "must name a .ts, .mts, .js or .mjs file"),
    hostModules: z.array(hostModuleSchema).default([]),
    /** Modules known only at run time: any module starting with one of these prefixes (see PluginRegistration). */
    modulePrefixes: z.array(z.string().regex(/^[a-z][a-z0-9-]*-$/, "must look like 'name-' (ends with a hyphen)")).default([]),
    capabilities: z.array(capabilitySchema).default([]),
    configSchema: z.record(z.string(), z.unknown()).default({ type: "object" }),
    declarations: relativeFileSchema.refine((path) => path.endsWith(".d.ts"), "must name a .d.ts file").optional(),
    hints: z.array(z.string().min(1).max(500)).default([]),
    native: z.boolean().optional(),
  })
  .strict()
  .superRefine((manifest, ctx) => {
    const seen = new Set<string>();
    manifest.hostModules.forEach((module, index) => {
      if (seen.has(module.name)) ctx.addIssue({ code: "custom", path: ["hostModules", index, "name"], message: `module "${module.name}" is declared twice` });
      seen.add(module.name);
      const reserved = RESERVED_MODULE_PREFIXES.find((prefix) => module.name.startsWith(prefix));
      if (reserved !== undefined && !manifest.modulePrefixes.some((prefix) => module.name.startsWith(prefix))) {
        ctx.addIssue({ code: "custom", path: ["hostModules", index, "name"], message: `starts with the reserved prefix "${reserved}"; only a plugin declaring it in modulePrefixes may use it` });
      }
    });
    if (new Set(manifest.capabilities).size !== manifest.capabilities.length) {
      ctx.addIssue({ code: "custom", path: ["capabilities"], message: "lists a capability more than once" });
    }
  });

export type PluginManifest = z.infer<typeof pluginManifestSchema>;
export type HostModuleManifest = z.infer<typeof hostModuleSchema>;

export function parseManifestText(file: string, text: string): PluginManifest {
  let raw: unknown;
  try {
    raw = parseJsonSafe(text);
  } catch (cause) {
    throw new PluginError("PLUGIN_MANIFEST_INVALID_JSON", `${file} is not valid JSON: ${(cause as Error).message}`, { data: { file }, cause });
  }
  const parsed = pluginManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new PluginError("PLUGIN_MANIFEST_INVALID", describeZodIssues(file, parsed.error.issues), {
      data: { file, issues: parsed.error.issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })) },
    });
  }
  return parsed.data;
}

export async function loadManifest(file: string): Promise<{ manifest: PluginManifest; text: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new PluginError("PLUGIN_MANIFEST_UNREADABLE", `cannot read ${file}: ${(cause as Error).message}`, { data: { file }, cause });
  }
  return { manifest: parseManifestText(file, text), text };
}

/** True when `module` is covered by the manifest: listed in hostModules or under a declared prefix. */
export function manifestDeclaresModule(manifest: PluginManifest, module: string): boolean {
  return manifest.hostModules.some((entry) => entry.name === module) || manifest.modulePrefixes.some((prefix) => module.startsWith(prefix));
}
