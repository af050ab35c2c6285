import { z } from "zod";

export const SeveritySchema = z.enum(["info", "warn", "block"]);
export type Severity = z.infer<typeof SeveritySchema>;

/** A report verdict is the highest severity found, or `pass` when nothing was found. */
export const VerdictSchema = z.enum(["pass", "info", "warn", "block"]);
export type Verdict = z.infer<typeof VerdictSchema>;

export const RuleFamilySchema = z.enum([
  "hidden-text",
  "encoding",
  "authority",
  "override",
  "steering",
  "secrets",
  "exfiltration",
  "injection",
  "shadowing",
  "identifier",
  "combined",
  "intent",
  "second-opinion",
]);
export type RuleFamily = z.infer<typeof RuleFamilySchema>;

export const FindingLocationSchema = z.object({
  tool: z.string().optional(),
  /** What was screened: `name`, `description`, `parameter`, `default`, `instructions`, `content`… */
  field: z.string(),
  /** JSON path into the listed definition (or the screened value), e.g. `$.inputSchema.properties.city.description`. */
  jsonPath: z.string(),
});
export type FindingLocation = z.infer<typeof FindingLocationSchema>;

export const FindingSchema = z.object({
  rule: z.string(),
  family: RuleFamilySchema,
  severity: SeveritySchema,
  location: FindingLocationSchema,
  /** Printable and bounded: invisible characters appear as ⟨U+200B⟩, ANSI as ⟨ESC⟩. */
  evidence: z.string(),
});
export type Finding = z.infer<typeof FindingSchema>;

const JsonSchemaLike = z.record(z.string(), z.unknown());

/** A tool exactly as an MCP server lists it; unknown extra keys are tolerated (and not screened). */
export const AuditedToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonSchemaLike,
  outputSchema: JsonSchemaLike.optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});
export type AuditedTool = z.infer<typeof AuditedToolSchema>;

export const AuditContextSchema = z.object({
  /** The other configured servers, so a description that reaches into them (shadowing) can be spotted. */
  otherServers: z.array(z.object({ name: z.string(), toolNames: z.array(z.string()) })),
});
export type AuditContext = z.infer<typeof AuditContextSchema>;

export interface AuditServerInput {
  readonly serverName: string;
  readonly instructions?: string | undefined;
  readonly tools: readonly AuditedTool[];
}

export interface AuditReport {
  readonly serverName: string;
  readonly verdict: Verdict;
  readonly counts: Readonly<Record<Severity, number>>;
  readonly findings: readonly Finding[];
}

/**
 * How a screened string is used decides which rules apply: identifiers (tool and parameter names),
 * prose (descriptions, titles, instructions, content text) or values (defaults, enums, examples,
 * call arguments — with the key they sit under, since `; curl …` in a `path` means something else
 * than in a `command`).
 */
export type FieldKind = { kind: "identifier" } | { kind: "prose" } | { kind: "value"; key?: string | undefined };

export const SEVERITY_RANK: Readonly<Record<Verdict, number>> = { pass: 0, info: 1, warn: 2, block: 3 };
