// The sandbox: one engine contract (types.ts), two engines, the shared guest pieces.
export {
  DEFAULT_LIMITS,
  isLazyHostModule,
  moduleUnavailability,
  rewordUnavailable,
  unavailableHostModule,
  ModuleUnavailableError,
  type HostModuleLabel,
  type ModuleUnavailability,
  type EngineChoice,
  type EngineKind,
  type EngineSelection,
  type GuestErrorInfo,
  type HostCallContext,
  type HostFunction,
  type HostModule,
  type HostModules,
  type LazyHostModule,
  type LogEntry,
  type LogLevel,
  type RunLimits,
  type RunRequest,
  type RunResult,
  type RunStats,
  type SandboxEngine,
  type SandboxError,
  type SandboxErrorCode,
} from "./types.js";
export { InvalidLimitsError, PartialRunLimitsSchema, RunLimitsSchema, resolveLimits } from "./limits.js";
export { createEngine, type CreateEngineOptions, type CreatedEngine } from "./select.js";
export { createQuickJsEngine, type QuickJsEngineOptions } from "./engines/quickjs.js";
export { createHyperlightEngine, probeHyperlight, HyperlightError, type HyperlightEngineOptions, type HyperlightErrorCode, type ProbeResult } from "./engines/hyperlight/index.js";

// Shared guest pieces (engine-neutral, pure), for engines and tools that build on them.
export { transformGuestSource, type TransformResult, type GuestSyntaxError } from "./guest/transform.js";
export { mapGuestPosition, mapGuestStack, type WrappedSource, type SourcePosition } from "./guest/wrapper.js";
export { BYTES_KEY, CodecError, MAX_NESTING_DEPTH, decodeFromGuest, encodeForGuest, type CodecErrorCode } from "./guest/codec.js";
export { guestBootstrapSource, guestManifestText } from "./guest/bootstrap-source.js";
export { LOAD_MODULE_FUNCTION, type GuestManifest, type GuestRunManifest, type GuestNative, type GuestRunner, type HostErrorInfo, type HostReply } from "./guest/native.js";
export { dispatchHostCall, describeHostError, type HostCallRequest } from "./host/host-call.js";
export { RunModules, type RunCallContext } from "./host/run-modules.js";
export { buildRunResult, limitError, type EngineOutcome, type RunFrame, type RunReport, type ThrownInfo } from "./host/outcome.js";
export { RunEndedError, runEnded, type RunEndedCode } from "./host/run-ended.js";
