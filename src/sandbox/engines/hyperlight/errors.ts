import { McpvmError } from "../../../util/errors.js";

/** Documented with what to do for each in deps/js-host-api/README.md. */
export type HyperlightErrorCode =
  | "HYPERLIGHT_NOT_INSTALLED"
  | "HYPERLIGHT_UNSUPPORTED_PLATFORM"
  | "HYPERLIGHT_MANIFEST_INVALID"
  | "HYPERLIGHT_DIGEST_MISMATCH"
  | "HYPERLIGHT_LOAD_FAILED"
  | "HYPERLIGHT_BOOT_FAILED";

export class HyperlightError extends McpvmError<HyperlightErrorCode> {}

/** The `code` the addon puts on its own errors (`ERR_CANCELLED`, `ERR_POISONED`, …), if any. */
export function addonErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
