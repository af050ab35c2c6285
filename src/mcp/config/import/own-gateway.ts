import { basename } from "node:path";

/**
 * An MCP client's entry that starts mcpvm's own gateway (`mcpvm serve`, `npx -y mcpvm serve`,
 * `node …/bin/mcpvm.js serve`): docs/GATEWAY.md has clients write exactly that, and README then
 * imports those clients' files. With the same config home it would serve mcpvm's servers again,
 * behind mcpvm itself; an entry that sets MCPVM_HOME chose another home on purpose.
 */
export function ownGatewayNote(name: string, entry: { readonly command?: unknown; readonly args?: unknown; readonly env?: unknown }): string | undefined {
  if (typeof entry.command !== "string") return undefined;
  const env = entry.env !== null && typeof entry.env === "object" ? (entry.env as Record<string, unknown>) : {};
  if (typeof env.MCPVM_HOME === "string" && env.MCPVM_HOME !== "") return undefined;
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === "string") : [];
  const words = [entry.command, ...args].map((word) => basename(word));
  const at = words.findIndex((word) => word === "mcpvm" || word === "mcpvm.js");
  if (at === -1 || !words.slice(at + 1).includes("serve")) return undefined;
  return `this entry starts mcpvm's own gateway (mcpvm serve): with this config home it would serve these same servers again, behind itself. Keep it only if it sets another MCPVM_HOME in its env; else \`mcpvm mcp remove ${name}\`.`;
}
