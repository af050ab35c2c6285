import { delimiter, resolve } from "node:path";

/** What libuv's execvp searches when the child's environment has no PATH at all (glibc's _PATH_DEFPATH). */
const DEFAULT_SEARCH_PATH = "/usr/bin:/bin";

/**
 * The folders a spawn without a shell searches for a bare command name, in order, given the child's
 * PATH and cwd. Doctor, `mcp add`'s check and the approval pin all look here, so none of them names
 * another program than the one the spawn runs. On POSIX, as libuv's execvp: an empty element
 * (`:/usr/bin`, `a::b`, a trailing `:`, PATH="") and a relative one are taken from the child's cwd;
 * no PATH at all is the system default, not mcpvm's. On Windows libuv looks in the cwd first.
 */
export function spawnSearchDirectories(pathVariable: string | undefined, cwd: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === "win32") return [cwd, ...(pathVariable ?? "").split(";").filter((dir) => dir !== "").map((dir) => resolve(cwd, dir))];
  return (pathVariable ?? DEFAULT_SEARCH_PATH).split(delimiter).map((dir) => resolve(cwd, dir === "" ? "." : dir));
}
