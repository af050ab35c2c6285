import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { spawnSearchDirectories } from "../../util/spawn-path.js";

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, process.platform === "win32" ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where `command` would be found when spawned without a shell: a path (absolute, or relative to
 * `cwd`) is checked as it is; a bare name is looked for in the folders the spawn searches
 * (spawn-path.ts: the child's PATH and cwd; with PATHEXT on Windows). Undefined when it is not
 * there, which is what makes a spawn fail with ENOENT.
 */
export async function findCommand(command: string, pathVariable: string | undefined, cwd: string, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  if (command.includes("/") || (platform === "win32" && command.includes("\\"))) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutableFile(full)) ? full : undefined;
  }
  const extensions = platform === "win32" ? ["", ...(process.env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";")] : [""];
  for (const dir of spawnSearchDirectories(pathVariable, cwd, platform)) {
    for (const extension of extensions) {
      const candidate = join(dir, `${command}${extension}`);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The folders a bare command name was looked for in, for a message ("a, b, c"). */
export function searchedFolders(pathVariable: string | undefined, cwd: string, platform: NodeJS.Platform = process.platform): string {
  return spawnSearchDirectories(pathVariable, cwd, platform).join(", ");
}

/** True when a file (a script given to an interpreter) exists, relative paths from `cwd`. */
export async function fileExists(path: string, cwd: string): Promise<boolean> {
  try {
    return (await stat(isAbsolute(path) ? path : resolve(cwd, path))).isFile();
  } catch {
    return false;
  }
}
