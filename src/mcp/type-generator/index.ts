export { generateModuleDeclaration, type TypeGenerationOptions } from "./module-declaration.js";
export { generateToolsGlobalDeclaration, type ServerTools } from "./tools-global.js";
export { generateDeclarations } from "./declarations.js";
export { buildModuleMetadata, firstSentence, toolHints, MAX_SUMMARY_LENGTH } from "./metadata.js";
export { compactListing, compactListingText, compactSignature, COMPACT_SUMMARY_CHARS, type CompactListing } from "./compact-listing.js";
export { formatToolSignature, formatSchemaType, type SignatureOptions } from "./signature.js";
export { CompiledTypesCache, type CompileOutcome } from "./cache.js";
export { DEFAULT_PREPARE_LIMITS, type PrepareLimits } from "./schema-prepare.js";
export { TypeGeneratorError, type TypeGeneratorErrorCode } from "./errors.js";
export { moduleSpecifier } from "./tool-list.js";
export { protocolNamespaces, type ProtocolNamespaces } from "./protocol-declarations.js";
export {
  toolForTypesSchema,
  toolAnnotationsForTypesSchema,
  serverInfoForMetadataSchema,
  moduleMetadataSchema,
  toolMetadataSchema,
  toolHintsSchema,
  type ToolForTypes,
  type ToolAnnotationsForTypes,
  type ServerInfoForMetadata,
  type ModuleMetadata,
  type ToolMetadata,
  type ToolHints,
} from "./types.js";
