import { McpvmError } from "../util/errors.js";
import { readFailure } from "../util/own-file.js";

export class AuditLogError extends McpvmError<"AUDIT_LOG_BROKEN" | "AUDIT_LOG_INSECURE" | "AUDIT_LOG_UNWRITABLE" | "AUDIT_LOG_UNREADABLE"> {}

export function insecure(file: string, problem: string, fix: string): AuditLogError {
  return new AuditLogError("AUDIT_LOG_INSECURE", `${file} ${problem}, so the audit log cannot be trusted. Fix it with: ${fix}`, { data: { file } });
}

export function unreadable(file: string, cause: unknown): AuditLogError {
  const failure = readFailure(file, cause);
  return new AuditLogError("AUDIT_LOG_UNREADABLE", `${file} ${failure.problem}, so the audit log cannot be checked or added to. Fix it with: ${failure.fix}`, { data: { file }, cause });
}

export function unwritable(file: string, cause: unknown): AuditLogError {
  let full = false;
  for (let current: unknown = cause, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    full ||= code === "ENOSPC" || code === "EDQUOT";
  }
  const next = full
    ? "the file system that holds it is full: free space there (or move the config home); until then every action that must be audited is refused"
    : "check that the config home is yours and writable";
  return new AuditLogError("AUDIT_LOG_UNWRITABLE", `cannot write the audit log ${file} (${(cause as Error).message}); ${next}.`, { data: { file }, cause });
}
