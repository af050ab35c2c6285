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
] as const;
export type AuditEventName = (typeof AUDIT_EVENTS)[number];

/** Which face of mcpvm acted: the CLI, the REPL, a script run, the gateway. */
export const AUDIT_FACES = ["cli", "repl", "run", "gateway", "demo", "unknown"] as const;
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

const hashText = z.string().regex(/^[0-9a-f]{64}$/);

/** One line of audit-log.jsonl. `hash` is the SHA-256 of the canonical JSON of every other field. */
export const auditEntrySchema = z
  .object({
    seq: z.number().int().positive(),
    time: z.string(),
    user: z.string(),
    face: z.string(),
    event: z.string(),
    subject: z.string(),
    decision: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    prev: hashText,
    hash: hashText,
  })
  .strict();

export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The last entry as the writer saw it, kept beside the log so removing entries from its end is noticed. */
export const auditHeadSchema = z.object({ version: z.literal(1), seq: z.number().int().nonnegative(), hash: hashText }).strict();
export type AuditHead = z.infer<typeof auditHeadSchema>;
