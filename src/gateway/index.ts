export { startGateway, type ServeOptions, type RunningGateway } from "./serve.js";
export { Gateway, type GatewayOptions, type CallContext } from "./gateway.js";
export { GatewayServers, GATEWAY_SERVER_INFO } from "./server-factory.js";
export { startHttpGateway, type HttpGateway, type HttpGatewayOptions } from "./http-server.js";
export { DEFAULT_SESSION_LIMITS } from "./legacy-sessions.js";
export { MAX_BODY_BYTES } from "./http-util.js";
export { startStdioGateway, type StdioGateway } from "./stdio.js";
export { parseListenAddress, isLoopback, requireTokenFor, DEFAULT_HTTP_HOST, type ListenAddress } from "./address.js";
export { bearerMatches } from "./auth.js";
export { resolveGatewayAuth, ensureHomeToken, readTokenFile, GATEWAY_TOKEN_FILE_NAME, MIN_TOKEN_LENGTH, type GatewayAuth, type TokenSource } from "./gateway-token.js";
export { SessionPool, type SessionLimits } from "./session-pool.js";
export { GatewayError, type GatewayErrorCode } from "./errors.js";
export { flattenToolName, assignFlatNames, parseToolRef, refKey, MAX_FLAT_NAME_LENGTH, type ToolRef, type FlatNameAssignment, type FlatNameCollision } from "./flatten.js";
export { gatewaySettingsSchema, parseGatewaySettings, type GatewaySettings } from "./settings.js";
export { HealthMonitor, backoffDelay, type HealthMonitorDeps } from "./health-monitor.js";
export { ToolDirectory, type UnavailableServer, type Catalogs } from "./directory.js";
export { Equipment, resolveToolRefs, type DirectTool, type MissingTool, type EquipReport } from "./equipment.js";
export { builtinToolDefinitions, builtinArgs, BUILTIN_TOOL_NAMES, isBuiltinTool, type BuiltinToolName } from "./builtin-tools.js";
export { ToolsetStore, type NamedToolset } from "./toolsets/store.js";
export {
  toolsetSchema,
  toolsetFileSchema,
  toolsetInputSchema,
  toolsetNameSchema,
  TOOLSET_NAME_PATTERN,
  MAX_TOOLSET_TOOLS,
  type Toolset,
  type ToolsetFile,
  type ToolsetInput,
} from "./toolsets/schema.js";
export { ClientTokenStore, CLIENT_TOKEN_PREFIX, type ClientEntry, type CreateClientOptions } from "./clients/store.js";
export { tokenAuthenticator, bearerOf, type RequestAuthenticator, type TokenAuthOptions } from "./clients/authenticate.js";
export { parseRate, formatRate, allowsServer, isScoped, UNSCOPED, type ClientScope } from "./clients/scope.js";
export { ClientRateLimiter } from "./clients/rate-limiter.js";
export { isRefusal, refusal, bearerChallenge, type AuthRefusal, type AuthResult } from "./clients/authenticate.js";
export { OAuthResourceServer, type ResourceServerOptions } from "./oauth/resource-server.js";
export { oauthSettingsSchema, ACCEPTED_ALGORITHMS, type OAuthSettings, type OAuthClient, type OAuthGrant } from "./oauth/settings.js";
export { checkOAuth, type OAuthCheck, type TokenCheck } from "./oauth/check.js";
