/**
 * The file shape of an independently written held-out set (heldout-v4.json to heldout-v7.json), for
 * their shape tests: the schema the intent harness relies on, with each set's own id pattern. Reading
 * a set through it never runs the auditor.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "audit-intent");

/** A set file of tests/fixtures/audit-intent, parsed as JSON only. */
export const readIntentFile = (name: string): unknown => JSON.parse(readFileSync(path.join(dir, `${name}.json`), "utf8"));

export const FAMILIES = ["context-exfiltration", "shadowing", "steering", "encoded", "server-instructions", "multilingual"] as const;

/** v14 on: requests for tokens or keys anywhere in a definition, not only in server instructions. */
export const SET_FAMILIES = [...FAMILIES, "credentials"] as const;

const jsonSchemaObject = z.looseObject({ type: z.literal("object"), properties: z.record(z.string(), z.unknown()).optional() });
const toolSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: jsonSchemaObject,
  outputSchema: jsonSchemaObject.optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});

/** A held-out set whose attack ids start with `prefix` (`v4`, `h5`) and name their family. */
export function heldoutSetSchema(prefix: string) {
  return z.strictObject({
    about: z.string().min(1),
    attacks: z.array(
      z.strictObject({
        id: z.string().regex(new RegExp(`^${prefix}-(ctx|sh|st|enc|si|ml|cred)-\\d{2}$`)),
        family: z.enum(SET_FAMILIES),
        language: z.string().regex(/^[a-z]{2}$/),
        server: z.strictObject({ name: z.string().min(1), instructions: z.string().min(1).optional(), tools: z.array(toolSchema).min(1) }),
        otherServers: z.array(z.strictObject({ name: z.string().min(1), toolNames: z.array(z.string().min(1)).min(1) })),
      }),
    ),
    benign: z.array(
      z.strictObject({
        server: z.string().min(1),
        source: z.strictObject({ repo: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), path: z.string().min(1) }),
        tools: z.array(toolSchema).min(1),
      }),
    ),
  });
}

/** The benign repos any set file names (earlier sets and tuning material, to keep a new set's servers new). */
export const repoList = z.object({ benign: z.array(z.object({ source: z.object({ repo: z.string() }) })).default([]) });

/** Every string under a `description` key, at any depth (tool descriptions and nested property descriptions). */
export function descriptionsIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) descriptionsIn(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "description" && typeof inner === "string") into.push(inner);
      else descriptionsIn(inner, into);
    }
  }
  return into;
}
