/** "host:mcp-memory", "mcp-memory" -> "mcp-memory"; the model may write either. */
export function moduleName(name: string): string {
  return name.trim().replace(/^host:/, "");
}

/** "mcp-memory" -> "memory"; undefined for plugin modules. */
export function mcpServerOf(module: string): string | undefined {
  return module.startsWith("mcp-") ? module.slice(4) : undefined;
}
