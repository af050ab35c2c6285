export { ClientManager, type ConnectedServer, type RequestExtras } from "./client-manager.js";
export {
  SERVER_REQUEST_METHODS,
  supportsRequest,
  type ServerRequestMap,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
} from "./requests.js";
export { clientCapabilities, type ServerRequestContext, type ServerRequestHooks } from "./server-requests.js";
export { localRoots } from "./local-roots.js";
export { resolveOrigin, type InFlightCall, type ResolvedOrigin } from "./call-origin.js";
export { FloodGate } from "./flood-gate.js";
export { redactJson } from "./notifications.js";
export type { CallerOptions } from "./call-budget.js";
export {
  clientManagerLimitsSchema,
  type ClientManagerLimits,
  type ClientManagerLimitsInput,
  type ClientManagerHooks,
  type ClientManagerOptions,
  type LaunchResolver,
  type ServerIdentity,
} from "./options.js";
export type { ClientManagerEvent, ClientManagerListener, ServerState, ServerStatus } from "./events.js";
export {
  McpToolError,
  McpRequestError,
  McpTimeoutError,
  McpCancelledError,
  McpTransportError,
  McpConnectError,
  McpServerUnavailable,
  type McpClientErrorCode,
  type McpToolErrorCode,
  type McpRequestErrorCode,
  type McpTimeoutErrorCode,
  type McpCancelledErrorCode,
  type McpTransportErrorCode,
  type McpConnectErrorCode,
  type McpServerUnavailableCode,
  type McpErrorData,
} from "./errors.js";
export { defaultChildEnv, minimalChildEnv, INHERITED_ENV_KEYS, type ChildEnvBuilder } from "./child-env.js";
export type { SpawnFunction } from "./stdio-transport.js";
export { decideRoom, type CapacityCandidate, type RoomDecision } from "./capacity.js";
export { StderrRing } from "./stderr-ring.js";
