import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { z } from "zod";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { isCompiledBuild, packageRoot } from "../../util/package-root.js";
import { auditRuleIdSchema } from "./rules.js";
import type { FileScan } from "./scan-file.js";

/**
 * What a plugin source file's scan found (scanSource: findings and module references), kept by the
 * sha256 of the file's content, so that loading an approved plugin does not parse its unchanged
 * files again on every start (the parse is most of the audit; `mcpvm run` audits the enabled
 * plugins each time, since an approval covers exactly the bytes audited).
 *
 * A scan depends on the content and on the scanner: entries are used only when the file was written
 * by the same scanner, named by a digest of its own source files (this folder, as built) and the
 * parser's version, so a changed rule or parser discards the cache. It lives in the config home
 * (mode 0600, refused when others can write it) beside the approvals it serves; whoever can write it
 * can also write the approvals. Missing, unreadable or unwritable: every file is parsed, as without
 * it. Files that do not parse are never kept (their error is reported from a fresh parse).
 */
const cacheFileSchema = z.lazy(() => {
  // Built on the cache's first read (z.lazy), so a process that loads no plugin never constructs it.
  const referenceSchema = z.object({ specifier: z.string(), line: z.number().int(), column: z.number().int() }).strict();
  const findingSchema = z.object({ rule: auditRuleIdSchema, line: z.number().int(), column: z.number().int(), detail: z.string() }).strict();
  const scanSchema = z.object({ findings: z.array(findingSchema), references: z.array(referenceSchema), usedAt: z.number() }).strict();
  return z.object({ version: z.literal(1), scanner: z.string(), scans: z.record(z.string(), scanSchema) }).strict();
});
type CacheFile = z.infer<typeof cacheFileSchema>;

/** Entries kept: the native plugins' files and a few user plugins' several times over. */
const MAX_ENTRIES = 512;

let scannerIdentity: Promise<string | undefined> | undefined;

/**
 * A digest of the scanner as it runs: every source file of this folder (dist/src/… in the build,
 * src/… under the TypeScript sources) and @babel/parser's version; undefined when they cannot be
 * read (no cache then).
 */
export function scannerDigest(): Promise<string | undefined> {
  scannerIdentity ??= (async () => {
    try {
      const dir = join(packageRoot(), ...(isCompiledBuild() ? ["dist", "src"] : ["src"]), "plugin-system", "audit");
      const names = (await readdir(dir)).filter((name) => /\.[jt]s$/.test(name) && !name.endsWith(".d.ts")).sort();
      const hash = createHash("sha256");
      for (const name of names) hash.update(name).update("\0").update(await readFile(join(dir, name))).update("\0");
      const parser = createRequire(import.meta.url)("@babel/parser/package.json") as { version?: unknown };
      hash.update(String(parser.version));
      return hash.digest("hex");
    } catch {
      return undefined;
    }
  })();
  return scannerIdentity;
}

export class ScanCache {
  private readonly store: JsonFileStore<CacheFile>;
  private loaded: Promise<{ scanner: string | undefined; scans: Map<string, FileScan> }> | undefined;
  private readonly fresh = new Map<string, FileScan>();

  /** `file`: the cache in the config home (ConfigPaths.pluginScansFile). */
  constructor(file: string) {
    this.store = new JsonFileStore(file, cacheFileSchema, () => ({ version: 1, scanner: "", scans: {} }), "cached scans of plugin source files (they are parsed again when it is missing)", STATE_FILE_LIMITS.pluginScans);
  }

  /** The scan of a file with this content's sha256, if this scanner made one. */
  async get(sha256: string): Promise<FileScan | undefined> {
    return this.fresh.get(sha256) ?? (await this.load()).scans.get(sha256);
  }

  /** Keeps a new scan; written to the file by save(). */
  set(sha256: string, scan: FileScan): void {
    this.fresh.set(sha256, { findings: scan.findings, references: scan.references });
  }

  /** Writes the scans made since the last save (one locked update), if any; a failure only loses the cache. */
  async save(): Promise<void> {
    if (this.fresh.size === 0) return;
    const { scanner, scans } = await this.load();
    if (scanner === undefined) return;
    const added = [...this.fresh];
    this.fresh.clear();
    for (const [sha256, scan] of added) scans.set(sha256, scan);
    try {
      await this.store.update((draft) => {
        // Another scanner's entries are of no use to this one.
        if (draft.scanner !== scanner) Object.assign(draft, { scanner, scans: {} });
        const now = Date.now();
        for (const [sha256, scan] of added) draft.scans[sha256] = { findings: [...scan.findings], references: [...scan.references], usedAt: now };
        const entries = Object.entries(draft.scans);
        if (entries.length > MAX_ENTRIES) {
          entries.sort((a, b) => b[1].usedAt - a[1].usedAt);
          draft.scans = Object.fromEntries(entries.slice(0, MAX_ENTRIES));
        }
      });
    } catch {
      // A read-only or broken config home: the next start parses again.
    }
  }

  private load(): Promise<{ scanner: string | undefined; scans: Map<string, FileScan> }> {
    this.loaded ??= (async () => {
      const scanner = await scannerDigest();
      const scans = new Map<string, FileScan>();
      if (scanner === undefined) return { scanner, scans };
      try {
        const file = await this.store.read();
        if (file.scanner === scanner) for (const [sha256, scan] of Object.entries(file.scans)) scans.set(sha256, { findings: scan.findings, references: scan.references });
      } catch {
        // Corrupt or not ours: parse as if there were no cache.
      }
      return { scanner, scans };
    })();
    return this.loaded;
  }
}
