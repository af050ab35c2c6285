import { isAbsolute } from "node:path";
import { z } from "zod";
import { hasUnsafeDisplayChars } from "../../terminal/display.js";
import { CONFIRM_MODES } from "./confirm-mode.js";
import { mcpOAuthConfigSchema } from "./oauth-schema.js";
import { inputReferences, parseTemplate } from "./placeholders.js";
import { inferTransport, templateFields } from "./template-fields.js";

export const INPUT_ID_PATTERN = /^[A-Za-z0-9_.-]+$/;
const inputId = z.string().regex(INPUT_ID_PATTERN, "input ids are letters, digits, _ . and -");

/** VS Code `inputs`: a value asked for at connect time; the answer is kept in memory only. */
export const promptStringInputSchema = z
  .object({
    type: z.literal("promptString"),
    id: inputId,
    description: z.string().optional(),
    password: z.boolean().optional(),
    default: z.string().optional(),
  })
  .strict();

export const pickStringInputSchema = z
  .object({
    type: z.literal("pickString"),
    id: inputId,
    description: z.string().optional(),
    options: z.array(z.union([z.string(), z.object({ label: z.string().optional(), value: z.string() }).strict()])).min(1),
    default: z.string().optional(),
  })
  .strict();

export const mcpInputSchema = z.discriminatedUnion("type", [promptStringInputSchema, pickStringInputSchema]);

// An env name may hold anything but "=" and NUL (Windows has names like "ProgramFiles(x86)").
const ENV_NAME = /^[^=\0]+$/;
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const STDIO_ONLY = ["command", "args", "env", "cwd"] as const;
const REMOTE_ONLY = ["url", "headers", "oauth"] as const;

export const mcpServerEntryObjectSchema = z
  .object({
    type: z.enum(["stdio", "http", "sse"]).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** OAuth login settings of an http or sse server (see oauth-schema.ts). */
    oauth: mcpOAuthConfigSchema.optional(),
    allowTools: z.array(z.string().min(1)).optional(),
    denyTools: z.array(z.string().min(1)).optional(),
    enabled: z.boolean().default(true),
    description: z.string().optional(),
    connectTimeoutMs: z.number().int().positive().max(600_000).optional(),
    callTimeoutMs: z.number().int().positive().max(3_600_000).optional(),
    maxResponseBytes: z.number().int().positive().max(100 * 1024 * 1024).optional(),
    /** How many calls the server takes at once: the default and the cap of a `$batch`'s concurrency. */
    maxConcurrentCalls: z.number().int().positive().max(256).optional(),
    confirm: z.enum(CONFIRM_MODES).optional(),
    inputs: z.array(mcpInputSchema).optional(),
    /**
     * The roots offered to this server alone (absolute paths, or `~/…`), in place of the face's (a
     * run's working directory, the gateway's client's). server-filesystem takes its roots as its
     * allowed folders, so `mcp add filesystem --dir X` writes `[X]` here.
     */
    roots: z.array(z.string().min(1)).optional(),
  })
  .strict();

type EntryObject = z.output<typeof mcpServerEntryObjectSchema>;

function rule(ctx: z.core.$RefinementCtx, path: readonly (string | number)[], ruleName: string, message: string): void {
  ctx.addIssue({ code: "custom", path: [...path], message, params: { rule: ruleName } });
}

function checkTransport(entry: EntryObject, ctx: z.core.$RefinementCtx): void {
  const transport = inferTransport(entry);
  if (transport === undefined) {
    rule(ctx, [], "stdio-command", 'needs "command" (a stdio server) or "url" (an http or sse server)');
    return;
  }
  if (transport === "stdio") {
    if (entry.command === undefined) rule(ctx, ["command"], "stdio-command", 'a stdio server needs "command"');
    for (const key of REMOTE_ONLY) if (entry[key] !== undefined) rule(ctx, [key], "transport-fields", `"${key}" applies to http and sse servers only, this one is stdio`);
    return;
  }
  if (entry.url === undefined) rule(ctx, ["url"], "remote-url", `an ${transport} server needs "url"`);
  for (const key of STDIO_ONLY) if (entry[key] !== undefined) rule(ctx, [key], "transport-fields", `"${key}" applies to stdio servers only, this one is ${transport}`);
  // A raw escape sequence in a URL could repaint the approval prompt's `url:` line; a URL carries
  // such bytes only percent-encoded.
  if (entry.url !== undefined && hasUnsafeDisplayChars(entry.url)) {
    rule(ctx, ["url"], "url-characters", "must not contain control, bidi or invisible characters (percent-encode them, e.g. %1B)");
    return;
  }
  if (entry.url !== undefined && !entry.url.includes("${")) {
    let protocol = "";
    try {
      protocol = new URL(entry.url).protocol;
    } catch {
      rule(ctx, ["url"], "url-scheme", "must be an absolute http:// or https:// URL");
      return;
    }
    if (protocol !== "http:" && protocol !== "https:") rule(ctx, ["url"], "url-scheme", `must use http: or https:, not ${protocol}`);
  }
}

function checkNames(entry: EntryObject, ctx: z.core.$RefinementCtx): void {
  for (const key of Object.keys(entry.env ?? {})) {
    if (!ENV_NAME.test(key)) rule(ctx, ["env", key], "env-name", 'environment variable names cannot be empty or contain "="');
    // Escape sequences in a name could repaint the approval prompt (erase the line above, move the cursor).
    else if (hasUnsafeDisplayChars(key)) rule(ctx, ["env", key], "env-name", "environment variable names cannot contain control, bidi or invisible characters");
  }
  for (const key of Object.keys(entry.headers ?? {})) {
    if (!HEADER_NAME.test(key)) rule(ctx, ["headers", key], "header-name", "header names are HTTP tokens (letters, digits and !#$%&'*+.^_`|~-)");
  }
}

function checkRoots(entry: EntryObject, ctx: z.core.$RefinementCtx): void {
  entry.roots?.forEach((root, index) => {
    // Relative to what? The folder a command runs in changes; a server's own roots must not.
    if (!isAbsolute(root) && root !== "~" && !root.startsWith("~/")) rule(ctx, ["roots", index], "roots-absolute", `must be an absolute path or start with ~/ (got ${JSON.stringify(root)})`);
    else if (hasUnsafeDisplayChars(root)) rule(ctx, ["roots", index], "roots-absolute", "cannot contain control, bidi or invisible characters");
  });
}

function checkPlaceholders(entry: EntryObject, ctx: z.core.$RefinementCtx): void {
  const declared = new Set<string>();
  entry.inputs?.forEach((input, index) => {
    if (declared.has(input.id)) rule(ctx, ["inputs", index, "id"], "duplicate-input", `input "${input.id}" is declared twice`);
    declared.add(input.id);
  });
  for (const field of templateFields(entry)) {
    const parsed = parseTemplate(field.value);
    if (!parsed.ok) {
      rule(ctx, field.path, "placeholder", parsed.problem);
      continue;
    }
    for (const id of inputReferences(field.value)) {
      if (!declared.has(id)) rule(ctx, field.path, "unknown-input", `\${input:${id}} is not declared in this server's "inputs"`);
    }
  }
}

/**
 * One server as stored in config.json `mcpServers.<name>`. `type` may be omitted (inferred from
 * command/url), `enabled` defaults to true; the parsed value always has both.
 */
export const mcpServerEntrySchema = mcpServerEntryObjectSchema
  .superRefine((entry, ctx) => {
    checkTransport(entry, ctx);
    checkNames(entry, ctx);
    checkPlaceholders(entry, ctx);
    checkRoots(entry, ctx);
  })
  .transform(({ type, ...rest }) => ({ type: inferTransport({ type, ...rest }) ?? "stdio", ...rest }));

export type McpInputDefinition = z.output<typeof mcpInputSchema>;
export type McpServerEntry = z.output<typeof mcpServerEntrySchema>;
/** What a user or an importer may write: `type` and `enabled` optional. */
export type McpServerEntryInput = z.input<typeof mcpServerEntrySchema>;
export type { McpConfirmMode } from "./confirm-mode.js";
