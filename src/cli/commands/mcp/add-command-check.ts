import { findCommand, searchedFolders } from "../../../host/diagnose/path-lookup.js";
import { missingCommandHint } from "../../../mcp/client-manager/command-hints.js";
import { launchLookup } from "../../../mcp/config/index.js";

/**
 * `mcp add x -- some-tool` of a program that is not installed used to be stored silently, and the
 * failure showed only at the first call, far from the typo. The entry is still added (the program
 * may be installed later; exit 0), but the person is told now, with where it was looked for.
 * Returns the warning, or undefined when the command is found or cannot be known yet (a ${VAR}).
 */
export async function missingCommandWarning(name: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, home: string): Promise<string | undefined> {
  if (entry.type !== "stdio") return undefined;
  // Looked for where the launch looks (launch-lookup.ts): the server's own PATH when it sets one, its
  // variables filled in (`-e PATH=/opt/x/bin:${PATH}`), in its cwd, else the config home.
  const lookup = launchLookup(entry, env, home);
  if (lookup === null) return undefined;
  const { command, pathVariable, cwd, ownPath } = lookup;
  if ((await findCommand(command, pathVariable, cwd)) !== undefined) return undefined;
  const isPath = /[\\/]/.test(command);
  const where = isPath
    ? `(looked for from ${cwd})`
    : `on PATH (looked in ${searchedFolders(pathVariable, cwd)}${ownPath ? `, the PATH in its env` : ""})`;
  return `warning: the command "${command}" of server ${name} is not found ${where}. It was added anyway, but will fail to start until it is there: ${missingCommandHint(command, ownPath)} Then \`mcpvm doctor\` checks it again.`;
}
