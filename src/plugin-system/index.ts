export type { PluginContext, PluginRegistration } from "./types.js";
export { PluginError, approveCommand, type PluginErrorCode } from "./errors.js";
export {
  pluginManifestSchema,
  hostModuleSchema,
  capabilitySchema,
  parseManifestText,
  loadManifest,
  manifestDeclaresModule,
  PLUGIN_NAME_PATTERN,
  RESERVED_MODULE_PREFIXES,
  type PluginManifest,
  type HostModuleManifest,
  type Capability,
} from "./manifest.js";
export { discoverPlugins, compiledEntryPath, type DiscoveredPlugin, type DiscoveryOptions, type DiscoveryResult, type PluginSource } from "./discovery.js";
export { auditPlugin, type AuditFinding, type AuditReport, type AuditedFile, type AuditInput } from "./audit/audit-plugin.js";
export { scanSource, type FileScan, type RawFinding, type ModuleReference } from "./audit/scan-file.js";
export { AUDIT_RULES, RISK_ORDER, riskLevelSchema, auditRuleIdSchema, type AuditRule, type AuditRuleId, type RiskLevel } from "./audit/rules.js";
export { approvalHash, type ApprovalSubject } from "./approval/digest.js";
export {
  PluginApprovalStore,
  approvalRecordSchema,
  approvalsFileSchema,
  auditSummarySchema,
  type ApprovalRecord,
  type ApprovalsFile,
  type AuditSummary,
} from "./approval/store.js";
export { snapshotPlugin, summarizeAudit, type PluginSnapshot } from "./snapshot.js";
export { approvalStatus, pluginState, pluginStatus, type ApprovalStatus, type PluginState, type PluginStatus } from "./lifecycle.js";
export { checkHostModules, importRegistration, parsePluginConfig, defaultImporter, type LoadedPlugin, type ModuleImporter } from "./host-loader.js";
export {
  PluginManager,
  type PluginManagerOptions,
  type PluginInfo,
  type HostModuleInfo,
  type LoadedHostModules,
} from "./manager.js";
