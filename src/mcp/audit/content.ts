import { toFinding } from "./location.js";
import { jsonPathKey } from "./schema-walk.js";
import { auditText } from "./text-audit.js";
import type { FieldKind, Finding } from "./types.js";

// Keys whose strings are text for a reader; any other key holds a value (argument, id, path) judged by its key.
const PROSE_KEYS = new Set(["text", "description", "message", "systemPrompt", "content", "title", "instructions", "prompt", "body", "comment", "summary", "blob"]);
const MAX_DEPTH = 64;
const MAX_STRINGS = 10_000;

export interface ContentLocation {
  readonly tool?: string | undefined;
  /** What the content is: `result`, `resource`, `prompt`, `arguments`, `sampling`, `elicitation`… */
  readonly field: string;
}

/**
 * Screen content a server returns (tool results, resources, prompts, sampling or elicitation
 * requests) or arguments about to be sent, with the same text rules as definitions. Every string in
 * the JSON value is screened; `jsonPath` points into the value given.
 */
export function auditContent(value: unknown, location: ContentLocation): Finding[] {
  const findings: Finding[] = [];
  let strings = 0;
  let truncated = false;
  const visit = (node: unknown, path: string, key: string | undefined, depth: number): void => {
    if (depth > MAX_DEPTH || strings > MAX_STRINGS) {
      truncated = true;
      return;
    }
    if (typeof node === "string") {
      strings += 1;
      const kind: FieldKind = key === undefined || PROSE_KEYS.has(key) ? { kind: "prose" } : { kind: "value", key };
      for (const hit of auditText(node, kind)) findings.push(toFinding(hit, { tool: location.tool, field: location.field, jsonPath: path }));
    } else if (Array.isArray(node)) {
      node.forEach((child, i) => visit(child, jsonPathKey(path, i), key, depth + 1));
    } else if (typeof node === "object" && node !== null) {
      for (const [k, child] of Object.entries(node)) visit(child, jsonPathKey(path, k), k, depth + 1);
    }
  };
  visit(value, "$", undefined, 0);
  if (truncated) {
    findings.push(toFinding({ rule: "unscreened-remainder", evidence: "value deeper than 64 levels or holding more than 10000 strings" }, { tool: location.tool, field: location.field, jsonPath: "$" }));
  }
  return findings;
}
