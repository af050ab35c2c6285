/**
 * Text from outside mcpvm (config files, MCP servers, guest code) shown in the page. As on the
 * terminal, bidi overrides and invisible characters are made visible (`\u202e`): in a page they
 * cannot repaint anything, but they can still reorder or hide what a person reads before they
 * approve a command, accept a tool or trust a result. The same functions as the CLI's, so the page
 * and the terminal show the same text.
 */
export { displayBlock as shownBlock, displayInline as shown } from "../../src/terminal/display.js";
