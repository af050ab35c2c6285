import type { McpServerEntry } from "../../mcp/config/index.js";
import { shellWord } from "../../util/shell-word.js";
import { problem, type Problem } from "./problem.js";

/** The package as npx or a path names it (`…/@modelcontextprotocol/server-filesystem/dist/index.js`, `…@2026.8.31`), or its bin. */
const PACKAGE = /(^|\/)@modelcontextprotocol\/server-filesystem($|@|\/)/;
const BIN = /(^|\/)mcp-server-filesystem$/;

/** The folders given after the package (or bin): the ones it would be limited to without roots. */
function folderArguments(entry: McpServerEntry): string[] | undefined {
  const words = [entry.command ?? "", ...(entry.args ?? [])];
  const at = words.findIndex((word) => PACKAGE.test(word) || BIN.test(word));
  if (at === -1) return undefined;
  return words.slice(at + 1).filter((word) => !word.startsWith("-"));
}

/**
 * server-filesystem takes the roots a client offers as its allowed folders, in place of its
 * arguments (docs/MCP.md, Roots). Without roots of its own in its entry it is offered the folder a
 * run starts in (or config.json's roots) and a gateway client's roots, so a run from / could read
 * /etc/passwd. A warning: it works, but wider than its arguments say. Containers (docker) see only
 * what is mounted, so only stdio commands that run the package on this machine are checked.
 */
export function filesystemRootsProblem(name: string, entry: McpServerEntry): Problem | undefined {
  if (entry.type !== "stdio" || entry.roots !== undefined) return undefined;
  const folders = folderArguments(entry);
  if (folders === undefined) return undefined;
  const roots = folders.length === 0 ? '"<its folder>"' : folders.map((folder) => JSON.stringify(folder)).join(", ");
  const readd = `mcpvm mcp add filesystem${name === "filesystem" ? "" : ` --as ${shellWord(name)}`} --dir ${folders.length === 1 ? shellWord(folders[0] ?? "") : "<folder>"} --overwrite`;
  return problem(
    "warning",
    "config",
    `server ${name}`,
    `${name} runs @modelcontextprotocol/server-filesystem with no "roots" of its own: it takes the roots it is offered as the folders it may use, in place of its arguments, and is offered the folder a run starts in (or a gateway client's roots); a run from / could read /etc/passwd`,
    `add "roots": [${roots}] to mcpServers.${name} in config.json, or re-add it: ${readd}; then mcpvm mcp approve ${shellWord(name)} (its roots are part of its approval)`,
  );
}
