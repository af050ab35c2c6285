export { canonicalJson, toolDefinitionHash, instructionsHash, type PinnableTool } from "./canonical.js";
export { comparePins, pinServer, diffDefinitions, formatPinChanges, type PinComparison, type ServerPins, type ToolPin, type FieldChange } from "./compare.js";
export { McpPinStore } from "./store.js";
