import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ListRootsResult } from "@modelcontextprotocol/client";
import { userHome } from "../../util/user-home.js";

/**
 * The roots a local face (`mcpvm run`, `mcp call`, the REPL) offers the servers it starts: the
 * working directory, as Claude Code offers its working directory and VS Code its workspace
 * folders; config.json `roots` (paths; `~/` is the home folder, a relative path is taken from the
 * working directory) replaces it, and `[]` offers none. The gateway offers its clients' roots
 * instead (src/gateway/passthrough/roots.ts).
 */
export function localRoots(configured: readonly string[] | undefined, cwd: string, home: string | undefined = userHome()): ListRootsResult {
  return {
    roots: rootPaths(configured, cwd, home).map((absolute) => ({ uri: pathToFileURL(absolute).href, name: basename(absolute) || absolute })),
  };
}

/** The absolute paths offered; with no home folder (`home` undefined), `~` paths name nothing and are left out. */
export function rootPaths(configured: readonly string[] | undefined, cwd: string, home: string | undefined): string[] {
  const paths = configured ?? [cwd];
  if (home === undefined) return paths.filter((path) => !(path === "~" || path.startsWith("~/"))).map((path) => resolve(cwd, path));
  return paths.map((path) => resolve(cwd, path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path));
}
