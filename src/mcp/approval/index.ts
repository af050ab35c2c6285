export { approvalHash, canonicalApprovalEncoding, type ApprovalSubject } from "./hash.js";
export { descriptionForModel, reviewDescription, type DescriptionReview } from "./description.js";
export { renderApprovalPrompt, NOT_SANDBOXED_WARNING } from "./prompt.js";
export { auditLaunchEnv, isCodeLoadingEnvName, isPureReference, McpLaunchEnvError, requireLaunchEnvConfirmed, shownConfigValue, type LaunchFinding } from "./launch-env.js";
export { McpApprovalStore, McpApprovalError, type McpApprovalErrorCode, type ApprovalRecord, type ApprovalStatus } from "./store.js";
export { compareLaunchTargets, describeLaunchTarget, findExecutable, lacksDigests, launchTargetSchema, resolveLaunchTarget, withDigests, type LaunchTarget } from "./executable.js";
export { FileDigestCache } from "./file-digest.js";
export { findPackageSpec, pinNpxSpec, splitNpmSpec, NPX_FLAGS, UVX_FLAGS, type PackageSpecAt, type RunnerFlags } from "./package-spec.js";
