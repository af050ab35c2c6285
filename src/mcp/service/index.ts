export { McpService, McpServiceError, type McpServiceOptions, type ServerSummary } from "./service.js";
export { ServerCatalog, type CatalogTool } from "./catalog.js";
export { mcpHostModules, type McpModuleOptions, DEFAULT_BATCH_CONCURRENCY, MAX_BATCH_CONCURRENCY, MAX_BATCH_ITEMS } from "./module.js";
export { toolsGlobalPrelude } from "./prelude.js";
export { needsConfirmation, type ConfirmCall, type CallConfirmationRequest } from "./confirm.js";
export { McpCallError, type McpCallErrorCode } from "./errors.js";
export { decideTrust, describeHeld, type HeldTool, type HeldReason, type TrustDecision } from "./trust.js";
export { applyListingCaps, listingCapsSchema, DEFAULT_LISTING_CAPS, McpListingError, type ListingCaps, type CappedTool } from "./listing-caps.js";
export { approvalSubject } from "./approval-subject.js";
