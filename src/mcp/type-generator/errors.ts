import { McpvmError } from "../../util/errors.js";

/**
 * Errors for inputs the caller (the catalog) must never produce. Schemas never cause these:
 * a schema that cannot be converted degrades to `unknown` for its tool instead.
 */
export type TypeGeneratorErrorCode =
  | "TYPEGEN_INVALID_SERVER_NAME"
  | "TYPEGEN_INVALID_TOOL_NAME"
  | "TYPEGEN_DUPLICATE_TOOL_NAME"
  | "TYPEGEN_INVALID_TOOL"
  /** Raised and caught inside the generator: the tool's type degrades to `unknown`. */
  | "TYPEGEN_SCHEMA_TOO_COMPLEX";

export class TypeGeneratorError extends McpvmError<TypeGeneratorErrorCode> {}
