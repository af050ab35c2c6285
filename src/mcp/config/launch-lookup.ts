import { isAbsolute, resolve } from "node:path";
import { buildChildEnv } from "./child-env.js";
import { filledFromEnvironment } from "./placeholders.js";

/** Where a stdio server's spawn will look for its command. */
export interface LaunchLookup {
  /** The command, its `${VAR}`s filled in. */
  readonly command: string;
  /** The child's PATH: the one its env sets (filled in), else mcpvm's (undefined when neither has one). */
  readonly pathVariable: string | undefined;
  /** Whether that PATH is the server's own (a message then says so, not "the PATH mcpvm was started with"). */
  readonly ownPath: boolean;
  /** Where it starts: its `cwd` filled in (a relative one from the default), else the default (the config home). */
  readonly cwd: string;
}

interface StdioFields {
  readonly command?: unknown;
  readonly env?: unknown;
  readonly cwd?: unknown;
}

const samePathName = (name: string, platform: NodeJS.Platform): boolean => (platform === "win32" ? name.toUpperCase() === "PATH" : name === "PATH");

/**
 * The command, PATH and cwd a stdio server's spawn will use, by resolve-launch.ts's and
 * buildChildEnv's rules, for checks made before launch (doctor, `mcp add`, the dashboard's add), so
 * they look where the launch and the approval pin do: `-e PATH=/opt/x/bin:${PATH}` was looked up
 * on mcpvm's PATH alone. Null when that is known only at launch (an `${input:…}`, a variable unset
 * without a default).
 */
export function launchLookup(entry: StdioFields, env: Readonly<Record<string, string | undefined>>, defaultCwd: string, platform: NodeJS.Platform = process.platform): LaunchLookup | null {
  if (typeof entry.command !== "string") return null;
  const command = filledFromEnvironment(entry.command, env);
  const cwd = typeof entry.cwd === "string" ? filledFromEnvironment(entry.cwd, env) : defaultCwd;
  if (command === null || cwd === null) return null;
  const pathEntry = Object.entries(typeof entry.env === "object" && entry.env !== null ? entry.env : {}).find(([name]) => samePathName(name, platform));
  const ownPath = pathEntry === undefined || typeof pathEntry[1] !== "string" ? undefined : filledFromEnvironment(pathEntry[1], env);
  if (ownPath === null) return null;
  const child = buildChildEnv(env, pathEntry === undefined || ownPath === undefined ? {} : { [pathEntry[0]]: ownPath }, platform);
  const pathVariable = Object.entries(child).find(([name]) => samePathName(name, platform))?.[1];
  return { command, pathVariable, ownPath: ownPath !== undefined, cwd: isAbsolute(cwd) ? cwd : resolve(defaultCwd, cwd) };
}
