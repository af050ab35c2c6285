export { McpService, McpServiceError, type McpServiceOptions, type ServerSummary } from "./service.js";
export type { ServerChange } from "./service-options.js";
export { ServerCatalog, type CatalogTool } from "./catalog.js";
export { callToolOnce, loadMcpModule, mcpHostModules, type McpModuleOptions, DEFAULT_BATCH_CONCURRENCY, batchConcurrency, MAX_BATCH_ITEMS } from "./module.js";
export { toolsGlobalTable } from "./tools-table.js";
export { mcpModuleTable, type ConfiguredServers, type McpModuleLoader } from "./module-table.js";
export { callRefusal, confirmationReason, describeToolHints, needsConfirmation, refusedCallMessage, type CallAnswer, type CallRefusal, type ConfirmCall, type CallConfirmationRequest, type ToolAnnotationsLike } from "./confirm.js";
export { McpCallError, type McpCallErrorCode } from "./errors.js";
export { acceptCommand, decideTrust, describeHeld, isBlockedHeld, shellWord, type HeldInstructions, type HeldTool, type HeldReason, type TrustDecision } from "./trust.js";
export { sortAcceptance, type ReviewedTool, type ToolAcceptance } from "./accept.js";
export { applyListingCaps, listingCapsSchema, DEFAULT_LISTING_CAPS, McpListingError, type ListingCaps, type CappedTool } from "./listing-caps.js";
export { approvalSubject } from "./approval-subject.js";
export { ApprovalRecheck, RACY_WINDOW_MS, statFileStamp, type ApprovalRecheckOptions, type FileStamp, type FileStamper } from "./approval-recheck.js";
export { CallRateLimiter, McpRateLimitError } from "./rate-limit.js";
// createSecondOpinionReviewer is imported from ./second-opinion.js directly: it loads the LLM SDK.
export type { SecondOpinionReviewer, SecondOpinionOptions } from "./second-opinion.js";
export { screenModelOutput, type OutputScreening } from "./screen-output.js";
export { restrictMcpModules, accessAllows, type McpAccess } from "./access.js";
