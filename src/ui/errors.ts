import { McpvmError } from "../util/errors.js";

export type UiErrorCode =
  | "UI_BAD_REQUEST"
  | "UI_NOT_FOUND"
  | "UI_BODY_TOO_LARGE"
  | "UI_CONFIRMATION_REQUIRED"
  | "UI_DEFINITION_CHANGED"
  | "UI_TOOLSET_CHANGED"
  | "UI_ASSETS_MISSING"
  | "UI_PORT_IN_USE"
  | "UI_RUN_UNKNOWN";

/** Errors of the dashboard itself; everything else the page shows is the CLI's own error. */
export class UiError extends McpvmError<UiErrorCode> {}
