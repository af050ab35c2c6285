export { AuditLog, AuditLogError, type AuditLogOptions, type AuditSink, type ReadOnlyAuditEntry } from "./store.js";
export { verifyChain, entryHash, canonicalJson, type ChainVerdict, type ChainBreak } from "./chain.js";
export { AUDIT_EVENTS, AUDIT_FACES, GENESIS_HASH, auditEntrySchema, type AuditEntry, type AuditEvent, type AuditEventName, type AuditFace } from "./entry.js";
