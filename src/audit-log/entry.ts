import { z } from "zod";

/** What happened. Names are `<area>.<verb>` so `audit log` can be read and filtered by eye. */
export const AUDIT_EVENTS = [
  "mcp.approve",
  "mcp.revoke",
  "mcp.tool.held",
  "mcp.tool.accept",
  "mcp.call.confirm",
  "mcp.flow",
  "mcp.sampling",
  "mcp.elicitation",
  "mcp.executable.changed",
  "plugin.approve",
  "plugin.revoke",
  "login",
  "logout",
] as const;
export type AuditEventName = (typeof AUDIT_EVENTS)[number];

/** Which face of mcpvm acted: the CLI, the REPL, a script run, the gateway, the dashboard (`mcpvm ui`). */
export const AUDIT_FACES = ["cli", "repl", "run", "gateway", "ui", "demo", "unknown"] as const;
export type AuditFace = (typeof AUDIT_FACES)[number];

/** What a caller records; the log adds seq, time, user, face and the chain fields. */
export interface AuditEvent {
  readonly event: AuditEventName;
  /** The server or plugin the event is about. */
  readonly subject: string;
  /** What was decided, in one word or two: approved, revoked, held, accepted, allowed, denied, asked. */
  readonly decision: string;
  /** Names, hashes and reasons only: never arguments, results or secret values. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export const GENESIS_HASH = "0".repeat(64);

const hashText = () => z.string().regex(/^[0-9a-f]{64}$/);

// Both schemas are built on their first parse (z.lazy): a process that reads no audit entry, such
// as a plain `mcpvm run`, never pays for their construction (zod builds every part of a schema eagerly).

/** One line of audit-log.jsonl. `hash` is the SHA-256 of the canonical JSON of every other field. */
export const auditEntrySchema = z.lazy(() =>
  z
    .object({
      seq: z.number().int().positive(),
      time: z.string(),
      user: z.string(),
      face: z.string(),
      event: z.string(),
      subject: z.string(),
      decision: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      prev: hashText(),
      hash: hashText(),
    })
    .strict(),
);

export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The last entry as the writer saw it, kept beside the log so removing entries from its end is noticed. */
export const auditHeadSchema = z.lazy(() => z.object({ version: z.literal(1), seq: z.number().int().nonnegative(), hash: hashText() }).strict());
export type AuditHead = z.infer<typeof auditHeadSchema>;
