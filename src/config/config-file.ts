import { readFile } from "node:fs/promises";
import { z } from "zod";
import { McpvmError } from "../util/errors.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import { parseJsonSafe } from "../util/json.js";

/**
 * ~/.mcpvm/config.json. Each section is owned by one area (sandbox limits, plugins, mcpServers,
 * profiles); this module only reads, validates the envelope, and writes atomically. Sections whose
 * shape belongs to another module are validated there (e.g. src/mcp/config validates mcpServers).
 */
export const pluginSettingsSchema = z
  .object({
    enabled: z.boolean().optional(),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const limitsSchema = z
  .object({
    cpuMs: z.number().int().positive().optional(),
    wallMs: z.number().int().positive().optional(),
    memoryBytes: z.number().int().positive().optional(),
    outputBytes: z.number().int().positive().optional(),
  })
  .strict();

export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    engine: z.enum(["auto", "quickjs", "hyperlight"]).optional(),
    limits: limitsSchema.optional(),
    plugins: z.record(z.string(), pluginSettingsSchema).optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    profiles: z.record(z.string(), z.unknown()).optional(),
    activeProfiles: z.array(z.string()).optional(),
    model: z.record(z.string(), z.unknown()).optional(),
    gateway: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
export type PluginSettings = z.infer<typeof pluginSettingsSchema>;

export type ConfigErrorCode = "CONFIG_INVALID_JSON" | "CONFIG_INVALID" | "CONFIG_UNREADABLE";

export class ConfigError extends McpvmError<ConfigErrorCode> {}

/** "mcpServers.github.env.TOKEN" style path for messages. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : index === 0 ? String(part) : /^[A-Za-z_$][\w$]*$/.test(String(part)) ? `.${String(part)}` : `[${JSON.stringify(String(part))}]`,
    )
    .join("");
}

/** Turn zod issues into one message naming the file, each JSON path and the rule broken. */
export function describeZodIssues(file: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.slice(0, 10).map((issue) => `  - ${formatJsonPath(issue.path)}: ${issue.message}`);
  if (issues.length > 10) lines.push(`  - … and ${issues.length - 10} more`);
  return `${file} is not valid:\n${lines.join("\n")}`;
}

export function parseConfigText(file: string, text: string): ConfigFile {
  let raw: unknown;
  try {
    raw = parseJsonSafe(text);
  } catch (cause) {
    throw new ConfigError("CONFIG_INVALID_JSON", `${file} is not valid JSON: ${(cause as Error).message}`, { data: { file }, cause });
  }
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError("CONFIG_INVALID", describeZodIssues(file, parsed.error.issues), {
      data: { file, issues: parsed.error.issues.map((i) => ({ path: formatJsonPath(i.path), message: i.message })) },
    });
  }
  return parsed.data;
}

/** A missing file is an empty config; an unreadable or invalid one is an error (never silently reset). */
export async function loadConfigFile(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError("CONFIG_UNREADABLE", `cannot read ${file}: ${(cause as Error).message}`, { data: { file }, cause });
  }
  return parseConfigText(file, text);
}

export async function saveConfigFile(file: string, config: ConfigFile): Promise<void> {
  const checked = configFileSchema.parse(config);
  await writeFileAtomic(file, `${JSON.stringify(checked, null, 2)}\n`);
}

/**
 * Read-modify-write under a per-file queue so two updates in one process never lose each other.
 * The mutator sees a validated copy; the result is validated again before it is written.
 */
const queues = new Map<string, Promise<unknown>>();
export async function updateConfigFile(file: string, mutate: (config: ConfigFile) => ConfigFile | void): Promise<ConfigFile> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(async () => {
    const current = await loadConfigFile(file);
    const draft = structuredClone(current);
    const result = mutate(draft) ?? draft;
    await saveConfigFile(file, result);
    return result;
  });
  queues.set(file, next);
  try {
    return await next;
  } finally {
    if (queues.get(file) === next) queues.delete(file);
  }
}
