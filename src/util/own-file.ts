import { constants, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { userInfo } from "node:os";
import { McpvmError } from "./errors.js";
import { describeSize } from "./state-file-limits.js";
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
 * A state file larger than mcpvm ever writes there (src/util/state-file-limits.ts): refused from its
 * size before a byte is read, so a grown file costs no time or memory. Exit 3 (STORE_), like a corrupt one.
 */
export class StateFileTooLargeError extends McpvmError<"STORE_TOO_LARGE"> {
  constructor(
    readonly file: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super("STORE_TOO_LARGE", `${tooLargeProblem(file, size, maxBytes)} ${tooLargeFix(file)}`, { data: { file, size, maxBytes } });
  }

  /** What is wrong, without the fix: callers add what the file holds before it. */
  get problem(): string {
    return tooLargeProblem(this.file, this.size, this.maxBytes);
  }
}

function tooLargeProblem(file: string, size: number, maxBytes: number): string {
  return `${file} is ${describeSize(size)}, more than the ${describeSize(maxBytes)} mcpvm reads of it (mcpvm never writes one that large), so it was not read.`;
}

/** What to do with a state file that grew too large: move it aside (never deleted: it may hold what the person needs). */
export function tooLargeFix(file: string): string {
  return `Move it away and let mcpvm write a new one, or restore it from a backup: mv ${file} ${file}.too-large   (nothing was changed)`;
}

/**
 * Reads a state file without following a symlink (O_NOFOLLOW) and checks the opened file: a
 * regular file, yours, not writable by others, at most `maxBytes` long (StateFileTooLargeError).
 * Undefined when it does not exist.
 */
export async function readOwnFile(file: string, maxBytes: number): Promise<{ readonly text: string } | { readonly problem: HomeProblem } | undefined> {
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
    if (info.size > maxBytes) throw new StateFileTooLargeError(file, info.size, maxBytes);
    // Strict decoding: a byte that is not UTF-8 is named (InvalidUtf8Error), never read as U+FFFD.
    return { text: decodeUtf8(await readAtMost(handle, file, info.size, maxBytes)) };
  } finally {
    await handle.close();
  }
}

/**
 * The whole file, refused when it holds more than `maxBytes`: it may have grown since its stat, so
 * the read itself stops one byte past the cap. The buffer starts at the stat's size (no 32 MB
 * allocation for a 2 KB file) and grows only for a file that grew.
 */
async function readAtMost(handle: FileHandle, file: string, size: number, maxBytes: number): Promise<Uint8Array> {
  if (!Number.isFinite(maxBytes)) return handle.readFile();
  let buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) throw new StateFileTooLargeError(file, (await handle.stat()).size, maxBytes);
      const bigger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
}

/**
 * Why a state file could not be opened or read, in words, with the command that fixes it: a file
 * made unreadable (chmod, another account's copy), a folder in its place, a disk error. Said as a
 * set-up problem naming the file, never as an internal error with a bare errno.
 */
export function readFailure(file: string, error: unknown): HomeProblem {
  if (error instanceof StateFileTooLargeError) {
    return { path: file, problem: `is ${describeSize(error.size)}, more than the ${describeSize(error.maxBytes)} mcpvm reads of it`, fix: `mv ${file} ${file}.too-large   # then let mcpvm write a new one (or restore it from a backup)` };
  }
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
