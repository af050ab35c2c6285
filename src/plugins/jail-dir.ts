import { constants } from "node:fs";
import { open, readlink, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { guardFs, outsideBase } from "./fs-errors.js";
import type { Jail } from "./jail.js";

/**
 * A directory of the jail held open by descriptor, so that what is created, listed or removed in
 * it lands in the very directory that was checked. A path is checked and then used: between the
 * two, a parent can be swapped for a symlink to anywhere, and an mkdir, an O_CREAT open or an
 * unlink by path would follow it out of the jail. Node has no openat(); on Linux the descriptor's
 * /proc/self/fd/<n> link gives the same thing: the kernel resolves it to the opened directory, not
 * to whatever its old path names now. Elsewhere (no /proc) entries are reached by the checked real
 * path, which leaves that window open.
 */
export class JailDirectory {
  private constructor(
    private readonly handle: FileHandle,
    /** Where entries are reached: /proc/self/fd/<n> on Linux, else the checked real path. */
    readonly path: string,
  ) {}

  /**
   * Open `dir` (a real path, or an entry of another JailDirectory) and accept it only if the
   * descriptor really is a directory inside the jail. `follow: false` refuses a final symlink
   * (ELOOP), for walks that must never enter a link.
   */
  static async open(jail: Jail, dir: string, shown: string, options: { readonly follow?: boolean } = {}): Promise<JailDirectory> {
    // Flags spelled out at each call so the plugin audit sees read-only opens (fs-read's graph has no writes).
    const opening = options.follow === false ? open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW) : open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    const handle = await guardFs(shown, opening);
    const procPath = `/proc/self/fd/${handle.fd}`;
    const opened = await readlink(procPath).catch(() => undefined);
    if (opened !== undefined && !jail.contains(opened)) {
      await handle.close();
      throw outsideBase(shown);
    }
    return new JailDirectory(handle, opened === undefined ? dir : procPath);
  }

  /** The path of `name` inside this directory, resolved through the descriptor. */
  entry(name: string): string {
    return join(this.path, name);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** Run `work` on the opened directory and close it whatever happens. */
  static async with<T>(jail: Jail, dir: string, shown: string, work: (opened: JailDirectory) => Promise<T>, options: { readonly follow?: boolean } = {}): Promise<T> {
    const opened = await JailDirectory.open(jail, dir, shown, options);
    try {
      return await work(opened);
    } finally {
      await opened.close();
    }
  }
}
