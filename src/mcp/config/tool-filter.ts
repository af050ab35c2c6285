export interface ToolFilter {
  readonly allowTools?: readonly string[] | undefined;
  readonly denyTools?: readonly string[] | undefined;
}

export interface ToolFilterResult<T> {
  /** The tools the guest sees, in the server's order. */
  readonly tools: readonly T[];
  /** Names of the tools the filter removed, in the server's order. */
  readonly hidden: readonly string[];
  /** Configured allowTools names that match no tool (shown by `info`, usually a typo). */
  readonly unmatchedAllow: readonly string[];
  readonly unmatchedDeny: readonly string[];
}

/**
 * allowTools and denyTools name original MCP tool names (as the server lists them), exactly.
 * allow set -> only those; deny only -> all but those; both -> allow first, then deny removes.
 */
export function filterTools<T extends { readonly name: string }>(tools: readonly T[], filter: ToolFilter): ToolFilterResult<T> {
  const allow = filter.allowTools === undefined ? undefined : new Set(filter.allowTools);
  const deny = new Set(filter.denyTools ?? []);
  const present = new Set(tools.map((tool) => tool.name));
  const kept: T[] = [];
  const hidden: string[] = [];
  for (const tool of tools) {
    const visible = (allow === undefined || allow.has(tool.name)) && !deny.has(tool.name);
    if (visible) kept.push(tool);
    else hidden.push(tool.name);
  }
  return {
    tools: kept,
    hidden,
    unmatchedAllow: [...(allow ?? [])].filter((name) => !present.has(name)),
    unmatchedDeny: [...deny].filter((name) => !present.has(name)),
  };
}
