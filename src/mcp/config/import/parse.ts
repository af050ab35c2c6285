import { readFile } from "node:fs/promises";
import { formatJsonPath } from "../../../config/config-file.js";
import { parseJsonDocument } from "../../../util/json-document.js";
import { McpConfigError } from "../errors.js";
import { mcpServerEntrySchema } from "../schema.js";
import type { McpServers } from "../validate.js";
import { normaliseEntry } from "./entries.js";
import { detectImportFormat, type McpImportFormat } from "./formats.js";
import { assignServerNames, type ServerRename } from "./server-names.js";

export interface McpImportReport {
  readonly file: string;
  readonly format: McpImportFormat;
  /** Importable servers under their mcpvm names, validated. */
  readonly servers: McpServers;
  /** Every name that changed, with why (only for imported servers). */
  readonly renames: readonly ServerRename[];
  /** Servers that could not be imported, by their name in the file, with why. */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** Parts of imported servers (or of the file) that were dropped, by mcpvm name ("" for the file). */
  readonly warnings: readonly { readonly name: string; readonly message: string }[];
}

export interface McpImportOptions {
  readonly nativePluginNames: readonly string[];
}

function inputMap(inputs: readonly unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const input of inputs) {
    if (typeof input === "object" && input !== null && typeof (input as { id?: unknown }).id === "string") map.set((input as { id: string }).id, input);
  }
  return map;
}

/** Read another tool's MCP config (JSON or JSONC) and turn it into mcpvm entries plus a report. */
export function parseImportText(file: string, text: string, options: McpImportOptions): McpImportReport {
  let raw: unknown;
  try {
    raw = parseJsonDocument(text, { comments: true });
  } catch (cause) {
    throw new McpConfigError("MCP_IMPORT_INVALID_JSON", `${file} is not valid JSON: ${(cause as Error).message}`, { data: { file }, cause });
  }
  const detected = detectImportFormat(file, raw);
  const definitions = inputMap(detected.inputs);
  const { names, renames } = assignServerNames(Object.keys(detected.servers), options.nativePluginNames);

  const servers: McpServers = {};
  const imported = new Set<string>();
  const skipped: { name: string; reason: string }[] = [];
  const warnings: { name: string; message: string }[] = detected.ignoredSections.map((section) => ({
    name: "",
    message: `the "${section}" section was not imported (only "${detected.pathPrefix.join(".")}" was); import it from a file of its own`,
  }));
  for (const [original, value] of Object.entries(detected.servers)) {
    const name = names.get(original) ?? original;
    const normalised = normaliseEntry(value, detected.format, definitions);
    if (!normalised.ok) {
      skipped.push({ name: original, reason: normalised.reason });
      continue;
    }
    const parsed = mcpServerEntrySchema.safeParse(normalised.candidate);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((issue) => {
        const rule = issue.code === "custom" ? String((issue.params as { rule?: unknown } | undefined)?.rule ?? issue.code) : issue.code;
        return `${formatJsonPath([...detected.pathPrefix, original, ...issue.path])}: ${issue.message} [${rule}]`;
      });
      skipped.push({ name: original, reason: lines.join("; ") });
      continue;
    }
    servers[name] = parsed.data;
    imported.add(original);
    warnings.push(...normalised.warnings.map((message) => ({ name, message })));
  }
  return {
    file,
    format: detected.format,
    servers,
    renames: renames.filter((rename) => imported.has(rename.from)),
    skipped,
    warnings,
  };
}

export async function readImportFile(file: string, options: McpImportOptions): Promise<McpImportReport> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new McpConfigError("MCP_IMPORT_UNREADABLE", `cannot read ${file}: ${(cause as Error).message}`, { data: { file }, cause });
  }
  return parseImportText(file, text, options);
}
