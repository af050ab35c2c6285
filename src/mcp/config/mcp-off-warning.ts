/**
 * What `mcpvm mcp add` and the dashboard's add form say when the server was added to a config home
 * whose mcp plugin is not enabled: added, but nothing starts until the plugin is approved and enabled.
 * One text for both faces, so the page never says less than the CLI.
 *
 * `command(words)`: a command as the face shows it (`mcpvm plugin approve mcp`, or `/plugin approve mcp` in the REPL).
 */
export function mcpOffWarning(command: (words: string) => string): string {
  return `MCP is off in this config home: the mcp plugin is not enabled, so no server starts until \`${command("plugin approve mcp")}\` and \`${command("plugin enable mcp")}\`.`;
}
