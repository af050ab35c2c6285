/**
 * When the person is asked before a call to one server's tools (its `confirm` setting):
 * - `writes` (the default): every tool the server does not mark `readOnlyHint: true`: sending,
 *   posting, creating and uploading as much as deleting;
 * - `destructive`: only tools that may delete or overwrite (not read-only, and not marked
 *   `destructiveHint: false`): the behaviour before `writes` became the default;
 * - `always`: every call; `never`: no call.
 * Annotations are the server's own claims; they count only from approved, pinned tool definitions.
 */
export const CONFIRM_MODES = ["writes", "destructive", "always", "never"] as const;

export type McpConfirmMode = (typeof CONFIRM_MODES)[number];

export const DEFAULT_CONFIRM_MODE: McpConfirmMode = "writes";

/** A server's policy: its `confirm` setting, else the default. */
export function confirmModeOf(entry: { readonly confirm?: McpConfirmMode | undefined }): McpConfirmMode {
  return entry.confirm ?? DEFAULT_CONFIRM_MODE;
}
