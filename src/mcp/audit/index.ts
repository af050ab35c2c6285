export { auditServer, auditServerText, auditToolDefinition, verdictOf } from "./audit-tool.js";
export { auditContent, type ContentLocation } from "./content.js";
export { AuditError, type AuditErrorCode } from "./errors.js";
export { MAX_EVIDENCE_LENGTH, renderEvidence } from "./evidence.js";
export { AUDIT_RULES, ruleById, type AuditRule, type AuditRuleId } from "./rules.js";
export {
  buildSecondOpinionPrompt,
  parseSecondOpinionVerdict,
  secondOpinionFinding,
  SecondOpinionVerdictSchema,
  type SecondOpinionPrompt,
  type SecondOpinionVerdict,
} from "./second-opinion.js";
export { auditText } from "./text-audit.js";
export {
  AuditContextSchema,
  AuditedToolSchema,
  FindingSchema,
  RuleFamilySchema,
  SeveritySchema,
  VerdictSchema,
  type AuditContext,
  type AuditedTool,
  type AuditReport,
  type AuditServerInput,
  type FieldKind,
  type Finding,
  type FindingLocation,
  type RuleFamily,
  type Severity,
  type Verdict,
} from "./types.js";
