import { dirname } from "node:path";
import { z } from "zod";
import { McpvmError } from "../util/errors.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import { editJsonText } from "./json-edit.js";
import { describeIssues, formatJsonPath } from "../util/zod-issues.js";
import { JsonDocumentError, parseJsonDocument, reservedKeyPath } from "../util/json-document.js";
import { withFileLock } from "../util/file-lock.js";
import { InvalidUtf8Error } from "../util/utf8.js";
import { StateFileTooLargeError } from "../util/own-file.js";
import { describeSize, STATE_FILE_LIMITS } from "../util/state-file-limits.js";
import { withKeySuggestions } from "../util/zod-key-suggestions.js";
import { assertConfigHomeSecure, describeHomeProblems, HomeSecurityError, readOwnFile } from "./home-security.js";

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
    toolCalls: z.number().int().positive().optional(),
  })
  .strict();

/** When a log file is rotated and how many rotated files are kept (docs/SECURITY.md, "How much of the audit log is kept"). */
export const logRotationSchema = z
  .object({
    /** 64 KB to 1 GB: below that a rotation every few hundred entries; above it one file to read past for every check. */
    maxFileBytes: z.number().int().min(64 * 1024).max(1024 * 1024 * 1024).optional(),
    keep: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();

export const configFileSchema = z
  .object({
    $schema: z.string().optional(),
    engine: z.enum(["auto", "quickjs", "quickjs-inline", "hyperlight"]).optional(),
    limits: limitsSchema.optional(),
    plugins: z.record(z.string(), pluginSettingsSchema).optional(),
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    profiles: z.record(z.string(), z.unknown()).optional(),
    activeProfiles: z.array(z.string()).optional(),
    model: z.record(z.string(), z.unknown()).optional(),
    gateway: z.record(z.string(), z.unknown()).optional(),
    /** The roots local runs offer MCP servers (src/mcp/client-manager/local-roots.ts); the working directory when absent. */
    roots: z.array(z.string().min(1)).optional(),
    /** The information-flow policy between MCP servers (validated by src/mcp/flow). */
    flows: z.unknown().optional(),
    /** Rotation of the audit log (audit-log.jsonl) and the activity log (activity.jsonl). */
    logs: z.object({ audit: logRotationSchema.optional(), activity: logRotationSchema.optional() }).strict().optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
export type PluginSettings = z.infer<typeof pluginSettingsSchema>;

export type ConfigErrorCode = "CONFIG_INVALID_JSON" | "CONFIG_DUPLICATE_KEY" | "CONFIG_INVALID" | "CONFIG_TOO_LARGE" | "CONFIG_UNREADABLE";

export class ConfigError extends McpvmError<ConfigErrorCode> {}

export { describeZodIssues, formatJsonPath } from "../util/zod-issues.js";

export function parseConfigText(file: string, text: string): ConfigFile {
  let raw: unknown;
  try {
    raw = parseJsonDocument(text, { refuseReservedKeys: true });
  } catch (cause) {
    const where = cause instanceof JsonDocumentError ? cause.problems.map((p) => `\n  - line ${p.line}, column ${p.column}: ${p.message}`).join("") : ` ${(cause as Error).message}`;
    const kind = cause instanceof JsonDocumentError ? cause.kind : "syntax";
    throw new ConfigError(
      kind === "duplicate-key" ? "CONFIG_DUPLICATE_KEY" : kind === "reserved-key" ? "CONFIG_INVALID" : "CONFIG_INVALID_JSON",
      `${file} is not valid${kind === "reserved-key" ? "" : " JSON"}:${where}\nFix it in an editor (nothing was changed).`,
      { data: { file }, cause },
    );
  }
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = withKeySuggestions(parsed.error.issues, configFileSchema).map((i) => ({ path: formatJsonPath(i.path), message: i.message }));
    throw new ConfigError("CONFIG_INVALID", describeIssues(file, issues), { data: { file, issues } });
  }
  return parsed.data;
}

/**
 * The envelope's failure, with the problems of mcpServers listed beside its own: that section is
 * validated by its owner (src/mcp/config) only once the envelope passes, so a file broken in both
 * took a round per section. Loaded on this failure path only, to keep a valid config's read light.
 */
async function withServerIssues(error: unknown, file: string, text: string): Promise<unknown> {
  const own = error instanceof ConfigError && error.code === "CONFIG_INVALID" ? error.data?.issues : undefined;
  if (!Array.isArray(own)) return error;
  const raw = parseJsonDocument(text, { refuseReservedKeys: true });
  // `null`, a number or a list: the envelope's "(root): expected object" says it all.
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return error;
  const servers = (raw as Record<string, unknown>).mcpServers;
  // Not an object: the envelope's own issues say so already.
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return error;
  const { parseMcpServers, DEFAULT_NATIVE_PLUGIN_NAMES } = await import("../mcp/config/validate.js");
  let serverIssues: { path: string; message: string }[] = [];
  try {
    parseMcpServers(servers, { file, nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES });
  } catch (invalid) {
    const issues = (invalid as { issues?: readonly { path: string; rule: string; message: string }[] }).issues ?? [];
    serverIssues = issues.map((issue) => ({ path: issue.path, message: `${issue.message} [${issue.rule}]` }));
  }
  if (serverIssues.length === 0) return error;
  const issues = [...(own as { path: string; message: string }[]), ...serverIssues];
  return new ConfigError("CONFIG_INVALID", describeIssues(file, issues), { data: { file, issues, serverIssues } });
}

/**
 * A missing file is an empty config (unless `missingIsEmpty: false`: a running gateway following its edits); an unreadable or invalid one is an error (never silently reset).
 * The home it lives in is checked first (owner, permissions, no planted links: CONFIG_HOME_INSECURE),
 * and the file is read without following a link.
 */
export async function loadConfigFile(file: string, options: { readonly missingIsEmpty?: boolean } = {}): Promise<ConfigFile> {
  return (await readConfigFile(file, options)).config;
}

/** The config and the text it was read from (undefined for a missing file), for an update that edits that text. */
async function readConfigFile(file: string, options: { readonly missingIsEmpty?: boolean }): Promise<{ config: ConfigFile; text: string | undefined }> {
  await assertConfigHomeSecure(dirname(file));
  let read: Awaited<ReturnType<typeof readOwnFile>>;
  try {
    read = await readOwnFile(file, STATE_FILE_LIMITS.config);
  } catch (cause) {
    if (cause instanceof StateFileTooLargeError) {
      // Not "let mcpvm write a new one": the person's servers and settings are in it.
      throw new ConfigError("CONFIG_TOO_LARGE", `${file} is ${describeSize(cause.size)}, more than the ${describeSize(cause.maxBytes)} mcpvm reads of a config (a config with a hundred servers is a few hundred KB), so it was not read. Look for what made it grow (a pasted log or output), or move it away and restore it from a backup: mv ${file} ${file}.too-large   (nothing was changed)`, {
        data: { file, size: cause.size, maxBytes: cause.maxBytes },
        cause,
      });
    }
    if (cause instanceof InvalidUtf8Error) {
      throw new ConfigError("CONFIG_INVALID_JSON", `${file} is ${cause.message}; open it in an editor, fix that line and save it as UTF-8 (nothing was changed).`, {
        data: { file, byte: cause.byte, line: cause.line },
        cause,
      });
    }
    throw new ConfigError("CONFIG_UNREADABLE", `cannot read ${file}: ${(cause as Error).message}`, { data: { file }, cause });
  }
  if (read === undefined) {
    if (options.missingIsEmpty !== false) return { config: {}, text: undefined };
    throw new ConfigError("CONFIG_UNREADABLE", `${file} is missing; an editor that saves by renaming passes through this, so it is not taken for "no servers". To stop every server, write {"mcpServers": {}} there.`, { data: { file } });
  }
  if ("problem" in read) throw new HomeSecurityError("CONFIG_HOME_INSECURE", describeHomeProblems(dirname(file), [read.problem]), { data: { home: dirname(file) } });
  // The file is read every time (another process may have changed it since); only the same text's
  // parse and validation are reused. One `mcpvm run` reads it several times (engine choice, host,
  // plugin manager), and validating it is most of the cost.
  const last = lastParsed.get(file);
  if (last !== undefined && last.text === read.text) return { config: structuredClone(last.config), text: read.text };
  let config: ConfigFile;
  try {
    config = parseConfigText(file, read.text);
  } catch (error) {
    throw await withServerIssues(error, file, read.text);
  }
  lastParsed.set(file, { text: read.text, config: structuredClone(config) });
  return { config, text: read.text };
}

/** The last text read from each config file and its validated content (a copy: callers may change theirs). */
const lastParsed = new Map<string, { readonly text: string; readonly config: ConfigFile }>();

/**
 * Writes the config atomically. Given what the file held (`previous`), only the members that changed are
 * edited in its text, so the person's indentation, line endings and key order stay (src/config/json-edit.ts).
 */
export async function saveConfigFile(file: string, config: ConfigFile, previous?: { readonly text: string; readonly config: ConfigFile }): Promise<void> {
  const checked = configFileSchema.parse(config);
  // Written, such a key would make the file unreadable (parseConfigText refuses it): refuse it here, unwritten.
  const reserved = reservedKeyPath(checked);
  if (reserved !== undefined) {
    throw new ConfigError("CONFIG_INVALID", `${formatJsonPath(reserved)}: "${String(reserved.at(-1))}" cannot be used as a name (mcpvm never reads __proto__, constructor or prototype keys); choose another. ${file} was not changed.`, {
      data: { file, path: formatJsonPath(reserved) },
    });
  }
  await writeFileAtomic(file, previous === undefined ? `${JSON.stringify(checked, null, 2)}\n` : editJsonText(previous.text, previous.config, checked));
}

/**
 * Read-modify-write under a per-file queue (two updates in one process) and a cross-process lock
 * (two mcpvm processes), re-reading the file inside the lock, so no update is ever lost.
 * The mutator sees a validated copy; the result is validated again before it is written.
 */
const queues = new Map<string, Promise<unknown>>();
export async function updateConfigFile(file: string, mutate: (config: ConfigFile) => ConfigFile | void): Promise<ConfigFile> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() =>
    withFileLock(file, async () => {
      const { config: current, text } = await readConfigFile(file, {});
      const draft = structuredClone(current);
      const result = mutate(draft) ?? draft;
      await saveConfigFile(file, result, text === undefined ? undefined : { text, config: current });
      return result;
    }),
  );
  queues.set(file, next);
  try {
    return await next;
  } finally {
    if (queues.get(file) === next) queues.delete(file);
  }
}
