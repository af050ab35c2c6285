export { sanitizeDescription, MAX_DESCRIPTION_LENGTH } from "./description.js";
export {
  sanitizeToolName,
  assignToolNames,
  isSafeIdentifier,
  formatPropertyKey,
  formatPropertyAccess,
  serverToolsKey,
  McpNameError,
} from "./names.js";
export type { ToolNameAssignment, ToolNameCollision, ToolNameMap } from "./names.js";
export { RESERVED_JS_NAMES, isReservedJsName } from "./reserved-names.js";
