import { delimiter } from "node:path";
import { findCommand } from "../../../host/diagnose/path-lookup.js";
import { missingCommandHint } from "../../../mcp/client-manager/command-hints.js";
import { filledFromEnvironment } from "../../../mcp/config/index.js";

/**
 * `mcp add x -- some-tool` of a program that is not installed used to be stored silently, and the
 * failure showed only at the first call, far from the typo. The entry is still added (the program
 * may be installed later; exit 0), but the person is told now, with where it was looked for.
 * Returns the warning, or undefined when the command is found or cannot be known yet (a ${VAR}).
 */
export async function missingCommandWarning(name: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, home: string): Promise<string | undefined> {
  if (entry.type !== "stdio" || typeof entry.command !== "string" || entry.command.includes("${")) return undefined;
  const command = entry.command;
  const entryEnv = (entry.env ?? {}) as Record<string, string>;
  // The server's own PATH when it sets one (its variables filled in as the launch does: `-e PATH=/opt/x/bin:${PATH}`
  // was looked up on mcpvm's PATH alone, and a command in /opt/x/bin was called missing); else mcpvm's PATH.
  const ownPath = entryEnv.PATH === undefined ? undefined : filledFromEnvironment(entryEnv.PATH, env);
  if (ownPath === null) return undefined;
  const pathVariable = ownPath ?? env.PATH;
  // A stdio server starts in its cwd, else the config home: a relative path is looked up from there.
  const cwd = typeof entry.cwd === "string" && !entry.cwd.includes("${") ? entry.cwd : home;
  if ((await findCommand(command, pathVariable, cwd)) !== undefined) return undefined;
  const isPath = /[\\/]/.test(command);
  const where = isPath
    ? `(looked for from ${cwd})`
    : `on PATH (looked in ${(pathVariable ?? "").split(delimiter).filter((d) => d !== "").join(", ") || "nothing: PATH is empty"}${ownPath === undefined ? "" : `, the PATH in its env`})`;
  return `warning: the command "${command}" of server ${name} is not found ${where}. It was added anyway, but will fail to start until it is there: ${missingCommandHint(command)} Then \`mcpvm doctor\` checks it again.`;
}
