import { constants, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { userInfo } from "node:os";
import { decodeUtf8, InvalidUtf8Error } from "./utf8.js";

// Files that decide what mcpvm runs (config, approvals, pins, the gateway token) are trusted only
// when they are ours: read without following a symlink, and judged on the opened file (so they
// cannot be swapped between the check and the read) for owner and group/world write.

/** One thing wrong, and the shell command that fixes it. */
export interface HomeProblem {
  readonly path: string;
  readonly problem: string;
  readonly fix: string;
}

/** Whose files count as ours: the current user's (and root's, who can change anything anyway). */
export interface Identity {
  readonly uid: number;
  readonly name: string;
}

const GROUP_OR_WORLD_WRITE = 0o022;

export function currentIdentity(): Identity | undefined {
  // Windows has no uids; the checks are POSIX-only.
  if (typeof process.getuid !== "function") return undefined;
  const uid = process.getuid();
  let name = String(uid);
  try {
    name = userInfo().username;
  } catch {
    // A uid without a passwd entry (containers): the number is the name.
  }
  return { uid, name };
}

function mode(info: Stats): string {
  return (info.mode & 0o7777).toString(8).padStart(3, "0");
}

function kind(info: Stats): string {
  return info.isDirectory() ? "folder" : "file";
}

/**
 * What is wrong with one entry of the home (or the home itself), judged on its lstat: a symlink
 * where a store file belongs, an owner that is not you, group/world write.
 */
export function entryProblems(path: string, info: Stats, me: Identity, options: { readonly symlinkAllowed: boolean }): HomeProblem[] {
  const problems: HomeProblem[] = [];
  if (info.isSymbolicLink() && !options.symlinkAllowed) {
    problems.push({ path, problem: "is a symbolic link (mcpvm never follows links for its state files)", fix: `rm ${path}   # then let mcpvm write a real file` });
    return problems;
  }
  // Root already controls every file of the machine, so a root-owned file gives no one new power
  // (as with ssh's StrictModes); any other owner could rewrite what mcpvm trusts.
  if (info.uid !== me.uid && info.uid !== 0) {
    problems.push({
      path,
      problem: `is owned by uid ${info.uid}, not by you (${me.name}, uid ${me.uid})`,
      fix: `rm -r ${path}   # if you did not put it there; else: sudo chown ${me.name} ${path}`,
    });
  }
  if (!info.isSymbolicLink() && (info.mode & GROUP_OR_WORLD_WRITE) !== 0) {
    problems.push({ path, problem: `is a ${kind(info)} writable by other users (mode ${mode(info)})`, fix: `chmod ${info.isDirectory() ? "700" : "600"} ${path}` });
  }
  return problems;
}

/** Why a state file cannot be trusted (judged on the opened file, so it cannot be swapped after the check), or undefined. */
export function ownFileProblem(file: string, info: Stats, me: Identity | undefined = currentIdentity()): HomeProblem | undefined {
  if (me === undefined) return undefined;
  return entryProblems(file, info, me, { symlinkAllowed: false })[0];
}

/**
 * Reads a state file without following a symlink (O_NOFOLLOW) and checks the opened file: a
 * regular file, yours, not writable by others. Undefined when it does not exist.
 */
export async function readOwnFile(file: string): Promise<{ readonly text: string } | { readonly problem: HomeProblem } | undefined> {
  const noFollow = constants.O_NOFOLLOW ?? 0;
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | noFollow);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") return { problem: { path: file, problem: "is a symbolic link (mcpvm never follows links for its state files)", fix: `rm ${file}   # then let mcpvm write a real file` } };
    throw error;
  }
  try {
    const info = await handle.stat();
    // Moved aside, not removed: a folder in a state file's place may hold something of the person's.
    if (!info.isFile()) return { problem: { path: file, problem: "is not a regular file", fix: `mv ${file} ${file}.broken   # then let mcpvm write a real file` } };
    const problem = ownFileProblem(file, info);
    if (problem !== undefined) return { problem };
    // Strict decoding: a byte that is not UTF-8 is named (InvalidUtf8Error), never read as U+FFFD.
    return { text: decodeUtf8(await handle.readFile()) };
  } finally {
    await handle.close();
  }
}

/**
 * Why a state file could not be opened or read, in words, with the command that fixes it: a file
 * made unreadable (chmod, another account's copy), a folder in its place, a disk error. Said as a
 * set-up problem naming the file, never as an internal error with a bare errno.
 */
export function readFailure(file: string, error: unknown): HomeProblem {
  if (error instanceof InvalidUtf8Error) {
    return { path: file, problem: `is ${error.message}`, fix: `open ${file} in an editor, fix that line and save it as UTF-8 (or delete the file)` };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") {
    return { path: file, problem: "cannot be read by you (permission denied)", fix: `chmod 600 ${file}   # if it is yours; else: sudo chown $(id -un) ${file}` };
  }
  if (code === "ELOOP") return { path: file, problem: "is a symbolic link (mcpvm never follows links for its state files)", fix: `rm ${file}   # then let mcpvm write a real file` };
  if (code === "EISDIR") return { path: file, problem: "is a folder, not a file", fix: `mv ${file} ${file}.broken   # then let mcpvm write a real file` };
  return { path: file, problem: `cannot be read (${errorText(error)})`, fix: `check ${file} and the disk it is on` };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
