export { McpConfigError } from "./errors.js";
export type { McpConfigErrorCode, McpConfigIssue, McpConfigRule } from "./errors.js";
export {
  mcpServerEntrySchema,
  mcpServerEntryObjectSchema,
  mcpInputSchema,
  promptStringInputSchema,
  pickStringInputSchema,
  INPUT_ID_PATTERN,
} from "./schema.js";
export type { McpServerEntry, McpServerEntryInput, McpInputDefinition, McpConfirmMode } from "./schema.js";
export { CONFIRM_MODES, DEFAULT_CONFIRM_MODE, confirmModeOf } from "./confirm-mode.js";
export {
  parseMcpServers,
  parseMcpServerEntry,
  serverNameProblems,
  MAX_MCP_SERVERS,
  MAX_SERVER_NAME_LENGTH,
  SERVER_NAME_PATTERN,
  RESERVED_SERVER_PREFIXES,
  RESERVED_SERVER_NAMES,
  DEFAULT_NATIVE_PLUGIN_NAMES,
} from "./validate.js";
export type { McpConfigContext, McpServers } from "./validate.js";
export { filledFromEnvironment, parseTemplate, inputReferences, variableReferences } from "./placeholders.js";
export type { TemplatePart, TemplateParse } from "./placeholders.js";
export { templateFields, inferTransport } from "./template-fields.js";
export type { TemplateField, TemplateSource } from "./template-fields.js";
export { InputCache } from "./input-cache.js";
export type { PromptInput } from "./input-cache.js";
export { resolveLaunch } from "./resolve-launch.js";
export { launchLookup } from "./launch-lookup.js";
export type { LaunchLookup } from "./launch-lookup.js";
export type { ResolveLaunchOptions } from "./resolve-launch.js";
export { filterTools } from "./tool-filter.js";
export type { ToolFilter, ToolFilterResult } from "./tool-filter.js";
export { buildChildEnv, isInheritedEnvName, INHERITED_ENV_NAMES, INHERITED_WINDOWS_ENV_NAMES } from "./child-env.js";
export { canonicalJson } from "./canonical.js";
export { stripJsonc } from "../../util/jsonc-strip.js";
export { detectImportFormat } from "./import/formats.js";
export type { McpImportFormat, DetectedImport } from "./import/formats.js";
export { normaliseServerName, assignServerNames } from "./import/server-names.js";
export { checkServerArgument, checkServerNameArgument, suggestServerName } from "./server-argument.js";
export type { ServerRename } from "./import/server-names.js";
export { normaliseEntry } from "./import/entries.js";
export type { NormalisedEntry } from "./import/entries.js";
export { parseImportText, readImportFile } from "./import/parse.js";
export type { McpImportReport, McpImportOptions } from "./import/parse.js";
export { mergeImportedServers } from "./import/merge.js";
export type { McpMergeResult } from "./import/merge.js";
export { listMcpServers, getMcpServer, addMcpServer, removeMcpServer, setMcpServerEnabled, importMcpServers } from "./store.js";
export type { McpStoreOptions } from "./store.js";
export { isLikelySecret } from "./secret-values.js";
export { mcpOffWarning } from "./mcp-off-warning.js";
