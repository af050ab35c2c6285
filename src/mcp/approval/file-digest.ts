import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { z } from "zod";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";

/**
 * The sha256 of an executable, for approval pins: a binary replaced at the same path is a change.
 *
 * Hashing a 100 MB `node` on every launch would cost a noticeable fraction of a second, so digests
 * are cached by the file's identity: path, device, inode, size, mtime and ctime. What the cache
 * trusts: that a file whose identity is unchanged has unchanged content. A write in place changes
 * mtime and ctime; a replacement (rename over the path) changes the inode and ctime. mtime can be
 * set back by whoever can write the file (`touch -d`), ctime cannot be set by any call short of
 * changing the system clock as root — so fooling the cache takes root, or a filesystem without
 * real ctimes (some network and FUSE mounts). The cache file itself lives in the config home
 * (mode 0600, refused when others can write it), next to the approvals it serves.
 */
const identitySchema = z
  .object({
    dev: z.number(),
    ino: z.number(),
    size: z.number(),
    mtimeMs: z.number(),
    ctimeMs: z.number(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
type Identity = z.infer<typeof identitySchema>;

const cacheFileSchema = z.object({ version: z.literal(1), files: z.record(z.string(), identitySchema) }).strict();
type CacheFile = z.infer<typeof cacheFileSchema>;

/** Entries kept in the file: enough for every configured server's executable and interpreter. */
const MAX_ENTRIES = 256;

export class FileDigestCache {
  private readonly memory = new Map<string, Identity>();
  private readonly store: JsonFileStore<CacheFile> | undefined;
  private loaded: Promise<void> | undefined;

  /** `file`: where digests persist across processes (the config home); without it they are kept in memory only. */
  constructor(file?: string) {
    this.store = file === undefined ? undefined : new JsonFileStore(file, cacheFileSchema, () => ({ version: 1, files: {} }), "cached digests of MCP server executables (they are re-computed when it is missing)", STATE_FILE_LIMITS.executableDigests);
  }

  /** The sha256 (hex) of the file's content now; undefined when it cannot be read. */
  async digest(path: string): Promise<string | undefined> {
    const before = await identityOf(path);
    if (before === undefined) return undefined;
    await this.load();
    const known = this.memory.get(path);
    if (known !== undefined && sameIdentity(known, before)) return known.sha256;
    const sha256 = await hashFile(path);
    if (sha256 === undefined) return undefined;
    // Changed while being read: the digest is of neither version for sure, so it is not kept.
    const after = await identityOf(path);
    if (after === undefined || !sameIdentity(before, after)) return sha256;
    const entry = { ...before, sha256 };
    this.memory.set(path, entry);
    await this.persist(path, entry);
    return sha256;
  }

  private async load(): Promise<void> {
    this.loaded ??= (async () => {
      if (this.store === undefined) return;
      try {
        for (const [path, entry] of Object.entries((await this.store.read()).files)) if (!this.memory.has(path)) this.memory.set(path, entry);
      } catch {
        // A broken cache only costs a re-hash; the approval check itself never depends on it.
      }
    })();
    return this.loaded;
  }

  private async persist(path: string, entry: Identity): Promise<void> {
    if (this.store === undefined) return;
    try {
      await this.store.update((draft) => {
        draft.files[path] = entry;
        const paths = Object.keys(draft.files);
        for (const old of paths.slice(0, Math.max(0, paths.length - MAX_ENTRIES))) delete draft.files[old];
      });
    } catch {
      // As above: a cache that cannot be written is only slower.
    }
  }
}

async function identityOf(path: string): Promise<Omit<Identity, "sha256"> | undefined> {
  try {
    const s = await stat(path);
    if (!s.isFile()) return undefined;
    return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
  } catch {
    return undefined;
  }
}

function sameIdentity(a: Omit<Identity, "sha256">, b: Omit<Identity, "sha256">): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

async function hashFile(path: string): Promise<string | undefined> {
  try {
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return hash.digest("hex");
  } catch {
    return undefined;
  }
}
