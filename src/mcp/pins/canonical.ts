import { createHash } from "node:crypto";

/** The parts of a tool definition that a pin covers. */
export interface PinnableTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/**
 * Canonical JSON: object keys sorted at every depth, so a server that merely reorders keys does not
 * look like a rug pull. Array order is kept (it can carry meaning, e.g. in enums and anyOf).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function pinnedPart(tool: PinnableTool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
}

export function toolDefinitionHash(tool: PinnableTool): string {
  return createHash("sha256").update(canonicalJson(pinnedPart(tool)), "utf8").digest("hex");
}

export function instructionsHash(instructions: string | undefined): string {
  return createHash("sha256").update(canonicalJson(instructions ?? null), "utf8").digest("hex");
}
