import { homedir } from "node:os";

/**
 * The account's home folder, or undefined where it has none: with HOME unset and no passwd entry
 * (a container run as `--user 1234`), `os.homedir()` throws instead of answering.
 */
export function userHome(): string | undefined {
  try {
    const home = homedir();
    return home === "" ? undefined : home;
  } catch {
    return undefined;
  }
}

/** Where a stdio server starts when its config names no `cwd`: the home folder, else the root. */
export function defaultServerCwd(): string {
  return userHome() ?? "/";
}
