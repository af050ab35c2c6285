import { McpvmError } from "../../util/errors.js";

export type AuditErrorCode = "MCP_AUDIT_NONCE_INVALID" | "MCP_AUDIT_VERDICT_INVALID";

export class AuditError extends McpvmError<AuditErrorCode> {}
