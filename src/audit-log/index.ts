export { AuditLog, AuditLogError, type AuditLogOptions, type AuditSink, type ReadOnlyAuditEntry } from "./store.js";
export { verifyChain, entryHash, canonicalJson, ChainChecker, type ChainVerdict, type ChainBreak, type ChainStart } from "./chain.js";
export { AUDIT_EVENTS, AUDIT_FACES, GENESIS_HASH, auditEntrySchema, type AuditEntry, type AuditEvent, type AuditEventName, type AuditFace } from "./entry.js";
export { DEFAULT_AUDIT_ROTATION, rotationFrom, segmentPath, type LogRotation } from "./segments.js";
export type { Tail, TailQuery } from "./reader.js";
