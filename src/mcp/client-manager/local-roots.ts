import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ListRootsResult } from "@modelcontextprotocol/client";

/**
 * The roots a local face (`mcpvm run`, `mcp call`, the REPL) offers the servers it starts: the
 * working directory, as Claude Code offers its working directory and VS Code its workspace
 * folders; config.json `roots` (paths; `~/` is the home folder, a relative path is taken from the
 * working directory) replaces it, and `[]` offers none. The gateway offers its clients' roots
 * instead (src/gateway/passthrough/roots.ts).
 */
export function localRoots(configured: readonly string[] | undefined, cwd: string, home: string = homedir()): ListRootsResult {
  const paths = configured ?? [cwd];
  return {
    roots: paths.map((path) => {
      const absolute = resolve(cwd, path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path);
      return { uri: pathToFileURL(absolute).href, name: basename(absolute) || absolute };
    }),
  };
}
