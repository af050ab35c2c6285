import { constants } from "node:fs";
import { lstat, open, readdir, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ownFileProblem, type HomeProblem } from "../util/own-file.js";

/**
 * The audit log on disk: the live file (audit-log.jsonl) and the segments rotated out of it,
 * audit-log.1.jsonl (the newest) … audit-log.<keep>.jsonl (the oldest). One hash chain runs through
 * all of them: a segment's first entry chains to the last entry of the one before it.
 */
export interface LogRotation {
  /** The live file is rotated before an append would take it past this size. */
  readonly maxFileBytes: number;
  /** Rotated segments kept beside the live file; the oldest is deleted when one more would be kept. */
  readonly keep: number;
}

const MB = 1024 * 1024;
/** The defaults: at most 10 segments of 10 MB (some 25,000 entries each), 100 MB in all. */
export const DEFAULT_AUDIT_ROTATION: LogRotation = { maxFileBytes: 10 * MB, keep: 9 };

/** The settings config.json gives (either may be absent), over the defaults. */
export function rotationFrom(settings: { readonly maxFileBytes?: number | undefined; readonly keep?: number | undefined } | undefined, defaults: LogRotation): LogRotation {
  return { maxFileBytes: settings?.maxFileBytes ?? defaults.maxFileBytes, keep: settings?.keep ?? defaults.keep };
}

/** audit-log.jsonl, 3 -> audit-log.3.jsonl (beside it). */
export function segmentPath(file: string, index: number): string {
  const name = basename(file);
  const dot = name.lastIndexOf(".");
  return join(dirname(file), dot > 0 ? `${name.slice(0, dot)}.${index}${name.slice(dot)}` : `${name}.${index}`);
}

/** The rotated segments present beside `file`, newest (1) first; a gap a crash left mid-rotation is skipped over. */
export async function rotatedSegments(file: string): Promise<Array<{ readonly index: number; readonly path: string }>> {
  const name = basename(file);
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : "";
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const found: Array<{ index: number; path: string }> = [];
  for (const entry of names) {
    if (!entry.startsWith(`${stem}.`) || !entry.endsWith(extension)) continue;
    const middle = entry.slice(stem.length + 1, entry.length - extension.length);
    if (/^[1-9]\d{0,5}$/.test(middle)) found.push({ index: Number(middle), path: join(dirname(file), entry) });
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * Moves the live file to segment 1, each segment one older, and deletes those past `keep`. The
 * caller holds the log's lock, so no writer appends meanwhile; readers open every segment and then
 * check that no name moved (openSegments), so they never mix files from before and after. A crash
 * part way leaves every entry in some segment, in order (renames go oldest first), at worst with a
 * gap in the numbers, which readers skip and the next rotation closes.
 */
export async function rotate(file: string, keep: number): Promise<void> {
  for (const segment of (await rotatedSegments(file)).reverse()) {
    if (segment.index >= keep) await rm(segment.path, { force: true });
    else await rename(segment.path, segmentPath(file, segment.index + 1));
  }
  await rename(file, segmentPath(file, 1));
  // The renames are made durable before the next entry goes to a new file.
  const folder = await open(dirname(file), constants.O_RDONLY).catch(() => undefined);
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}

export interface OpenSegment {
  readonly path: string;
  readonly handle: FileHandle;
  /** The size when opened: what is read of it (lines appended later belong to the next read). */
  readonly size: number;
  /** A rotated segment (not the live file). */
  readonly rotated: boolean;
}

export type OpenedLog = { readonly segments: readonly OpenSegment[] } | { readonly moved: true } | { readonly problem: HomeProblem };

/**
 * Opens every segment, oldest first, without following links, each judged on the opened file
 * (a regular file, yours, not writable by others). Opened descriptors read what was there however
 * the names move next; but a rotation between two opens would show one file twice or miss one, so
 * each name is checked again afterwards and `moved` returned when any changed (the caller retries).
 */
export async function openSegments(file: string): Promise<OpenedLog> {
  const opened: OpenSegment[] = [];
  const identities: Array<{ path: string; ino: number; dev: number }> = [];
  const closeAll = async () => Promise.all(opened.map((s) => s.handle.close().catch(() => undefined)));
  try {
    // The live file first, then older ones: a rotation that moves it after its open is caught by the check below.
    for (const { path, rotated } of [{ path: file, rotated: false }, ...(await rotatedSegments(file)).map((s) => ({ path: s.path, rotated: true }))]) {
      let handle: FileHandle;
      try {
        handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") {
          // A rotated segment deleted since it was listed is a rotation; a missing live file is an empty log (or one mid-rotation).
          if (rotated) return (await closeAll(), { moved: true });
          continue;
        }
        if (code === "ELOOP") return (await closeAll(), { problem: { path, problem: "is a symbolic link (mcpvm never follows links for its state files)", fix: `rm ${path}   # then let mcpvm write a real file` } });
        throw Object.assign(error as Error, { path });
      }
      const info = await handle.stat();
      opened.unshift({ path, handle, size: info.size, rotated });
      if (!info.isFile()) return (await closeAll(), { problem: { path, problem: "is not a regular file", fix: `mv ${path} ${path}.broken   # then let mcpvm start a new log` } });
      const problem = ownFileProblem(path, info);
      if (problem !== undefined) return (await closeAll(), { problem });
      identities.push({ path, ino: info.ino, dev: info.dev });
    }
    for (const identity of identities) {
      const now = await lstat(identity.path).catch(() => undefined);
      if (now === undefined || now.ino !== identity.ino || now.dev !== identity.dev) return (await closeAll(), { moved: true });
    }
    if ((await rotatedSegments(file)).length !== opened.filter((s) => s.rotated).length) return (await closeAll(), { moved: true });
    return { segments: opened };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

export async function closeSegments(log: OpenedLog): Promise<void> {
  if ("segments" in log) await Promise.all(log.segments.map((s) => s.handle.close().catch(() => undefined)));
}
