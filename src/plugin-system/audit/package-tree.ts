import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import type { AuditedFile } from "./audit-plugin.js";

/*
 * A user plugin's packages are not audited (the scan reads only the plugin's own files), but what
 * runs must still be what was approved: every file under the plugin's node_modules is hashed with
 * the plugin's sources, so an `npm install` or a swapped file there makes the approval stale, and
 * the private copy (private-copy.ts) is written from these bytes instead of linking the folder.
 * A tree too large to pin is refused rather than left reachable unpinned.
 */

export interface PackageTreeLimits {
  readonly files: number;
  readonly bytes: number;
}

export const PACKAGE_TREE_LIMITS: PackageTreeLimits = { files: 4000, bytes: 32 * 1024 * 1024 };

export interface PackageTree {
  /** Paths relative to the plugin's code folder ("node_modules/…"), forward slashes, sorted. */
  readonly files: readonly AuditedFile[];
  readonly sources: ReadonlyMap<string, Buffer>;
  /** Why the tree cannot be pinned (then files and sources are incomplete and must not be used). */
  readonly problem?: string;
}

class TreeTooLarge extends Error {}
class NotAFile extends Error {}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Every file under `<codeDir>/node_modules` with its bytes, or undefined when there is no such folder. */
export async function readPackageTree(codeDir: string, limits: PackageTreeLimits = PACKAGE_TREE_LIMITS): Promise<PackageTree | undefined> {
  const root = join(codeDir, "node_modules");
  const rootStat = await lstat(root).catch(() => undefined);
  if (rootStat === undefined) return undefined;
  const files: AuditedFile[] = [];
  const sources = new Map<string, Buffer>();
  const fail = (problem: string): PackageTree => ({ files, sources, problem });
  if (!rootStat.isDirectory()) return fail("node_modules is not a plain folder (a symbolic link or a file)");
  const realRoot = await realpath(root);
  const visited = new Set<string>([realRoot]);
  let bytes = 0;

  const addFile = async (path: string, display: string): Promise<void> => {
    // Non-blocking open and a check of what was opened: a FIFO put (or swapped) in a file's place
    // would block the read for good, and a file's size is known before its bytes are read, so one
    // huge (or sparse) file is refused without being read whole into memory.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    let content: Buffer;
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new NotAFile(`${display} is neither a file nor a folder`);
      if (bytes + info.size > limits.bytes) throw new TreeTooLarge();
      content = await handle.readFile();
    } finally {
      await handle.close();
    }
    bytes += content.length;
    if (files.length + 1 > limits.files || bytes > limits.bytes) throw new TreeTooLarge();
    files.push({ path: display, sha256: createHash("sha256").update(content).digest("hex") });
    sources.set(display, content);
  };

  const walk = async (dir: string, display: string): Promise<string | undefined> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      // Executables' links for npm scripts: nothing a plugin imports.
      if (entry.name === ".bin" && display === "node_modules") continue;
      const path = join(dir, entry.name);
      const shown = `${display}/${entry.name}`;
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        // pnpm and workspaces link packages; a link is followed only while it stays in this node_modules.
        const target = await realpath(path).catch(() => undefined);
        if (target === undefined) return `${shown} is a broken symbolic link`;
        if (!inside(realRoot, target)) return `${shown} is a symbolic link out of the plugin's node_modules`;
        const info = await stat(target);
        if (!info.isDirectory() && !info.isFile()) return `${shown} is a symbolic link to neither a file nor a folder`;
        isDir = info.isDirectory();
        if (isDir && visited.has(target)) continue;
        if (isDir) visited.add(target);
      } else if (!isDir && !entry.isFile()) {
        return `${shown} is neither a file nor a folder`;
      }
      const problem = isDir ? await walk(path, shown) : await addFile(path, shown);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };

  try {
    const problem = await walk(root, "node_modules");
    if (problem !== undefined) return fail(problem);
  } catch (error) {
    if (error instanceof NotAFile) return fail(error.message);
    if (error instanceof TreeTooLarge) {
      return fail(`node_modules holds more than ${limits.files} files or ${Math.round(limits.bytes / 1024 / 1024)} MB; bundle the plugin into its own files (e.g. esbuild --bundle --platform=node) so no package folder is needed`);
    }
    return fail(`node_modules cannot be read: ${(error as Error).message}`);
  }
  return { files, sources };
}
