import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditPlugin, type AuditInput } from "../../src/plugin-system/index.js";
import { ScanCache, scannerDigest } from "../../src/plugin-system/audit/scan-cache.js";
import { writeFiles } from "./helpers.js";

/**
 * The plugin audit keeps each file's scan by the SHA-256 of its content (plugin-scans.json in the
 * config home), so an unchanged plugin is not parsed again at every start; a changed file, another
 * scanner or a broken cache means a fresh parse. Real files; the cache file is read as a later
 * process would (a new ScanCache).
 */
let root: string;
let dir: string;
let cacheFile: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcpvm-scan-cache-"));
  dir = join(root, "plugin");
  cacheFile = join(root, "home", "plugin-scans.json");
  await mkdir(join(root, "home"), { recursive: true, mode: 0o700 });
  await mkdir(dir);
  await writeFiles(dir, { "index.ts": `import { h } from "./helper.js";\nexport default h;\n`, "helper.ts": `export const h = () => process.env.HOME;\n` });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const input = (scans?: ScanCache): AuditInput => ({ name: "sample", codeDir: dir, entryFile: join(dir, "index.ts"), capabilities: [], ...(scans === undefined ? {} : { scans }) });
const sha256 = async (file: string) => createHash("sha256").update(await readFile(file)).digest("hex");
type CacheText = { version: 1; scanner: string; scans: Record<string, { findings: { rule: string; line: number; column: number; detail: string }[]; references: unknown[]; usedAt: number }> };
const readCache = async () => JSON.parse(await readFile(cacheFile, "utf8")) as CacheText;

describe("the plugin audit's scan cache", () => {
  it("keeps each file's scan by content digest (mode 0600), and the report is the same as without it", async () => {
    const plain = await auditPlugin(input());
    const cached = await auditPlugin(input(new ScanCache(cacheFile)));
    expect(cached).toEqual(plain);
    const file = await readCache();
    expect(file.scanner).toBe(await scannerDigest());
    expect(Object.keys(file.scans).sort()).toEqual([await sha256(join(dir, "helper.ts")), await sha256(join(dir, "index.ts"))].sort());
    expect((await stat(cacheFile)).mode & 0o777).toBe(0o600);
    // A later process reads the same report from the cache.
    expect(await auditPlugin(input(new ScanCache(cacheFile)))).toEqual(plain);
  });

  it("a later audit takes an unchanged file's scan from the cache instead of parsing it", async () => {
    await auditPlugin(input(new ScanCache(cacheFile)));
    // Shown by an entry the parser would never produce for this content: the audit reports it.
    const file = await readCache();
    const helper = await sha256(join(dir, "helper.ts"));
    file.scans[helper]?.findings.push({ rule: "eval", line: 1, column: 1, detail: "from the cache" });
    await writeFile(cacheFile, JSON.stringify(file), { mode: 0o600 });
    const report = await auditPlugin(input(new ScanCache(cacheFile)));
    expect(report.findings.map((finding) => finding.message)).toContainEqual(expect.stringContaining("from the cache"));
  });

  it("a changed file is parsed again, and the cache gains its new content's scan", async () => {
    await auditPlugin(input(new ScanCache(cacheFile)));
    await writeFile(join(dir, "helper.ts"), `export const h = () => eval("1");\n`);
    const report = await auditPlugin(input(new ScanCache(cacheFile)));
    expect(report.findings.map((finding) => finding.rule)).toEqual(["eval"]);
    expect(Object.keys((await readCache()).scans)).toContain(await sha256(join(dir, "helper.ts")));
  });

  it("entries written by another scanner, and a corrupt cache file, are not used", async () => {
    await auditPlugin(input(new ScanCache(cacheFile)));
    const file = await readCache();
    for (const scan of Object.values(file.scans)) scan.findings.push({ rule: "eval", line: 1, column: 1, detail: "stale scanner" });
    await writeFile(cacheFile, JSON.stringify({ ...file, scanner: "another scanner" }), { mode: 0o600 });
    const other = await auditPlugin(input(new ScanCache(cacheFile)));
    expect(other.findings.map((finding) => finding.message).join("\n")).not.toContain("stale scanner");
    await writeFile(cacheFile, "{ not json", { mode: 0o600 });
    expect((await auditPlugin(input(new ScanCache(cacheFile)))).findings.map((finding) => finding.rule)).toEqual(["env"]);
  });
});
