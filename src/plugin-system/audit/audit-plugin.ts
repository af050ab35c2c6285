import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Capability } from "../manifest.js";
import { AUDIT_RULES, effectiveRisk, RISK_ORDER, type AuditRuleId, type RiskLevel } from "./rules.js";
import { readPackageTree } from "./package-tree.js";
import type { ScanCache } from "./scan-cache.js";
import type { ModuleReference, RawFinding, scanSource } from "./scan-file.js";

export interface AuditFinding {
  readonly rule: AuditRuleId;
  readonly risk: RiskLevel;
  readonly capability: Capability | null;
  /** Whether the manifest declares the capability; always false for rules no declaration covers. */
  readonly declared: boolean;
  readonly blocking: boolean;
  /** Relative to the plugin's code folder with forward slashes; mcpvm's own files as "mcpvm:src/…". */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly excerpt: string;
  readonly message: string;
}

export interface AuditedFile {
  /** Relative to the plugin's code folder with forward slashes; mcpvm's own files as "mcpvm:src/…". */
  readonly path: string;
  readonly sha256: string;
}

export interface AuditReport {
  readonly plugin: string;
  readonly codeDir: string;
  readonly files: readonly AuditedFile[];
  readonly findings: readonly AuditFinding[];
  readonly highestRisk: RiskLevel | null;
  /** True when a blocking finding makes approval impossible. */
  readonly blocked: boolean;
  readonly undeclaredCapabilities: readonly Capability[];
  readonly unusedCapabilities: readonly Capability[];
}

export interface AuditInput {
  readonly name: string;
  readonly codeDir: string;
  readonly entryFile: string;
  readonly capabilities: readonly Capability[];
  /** Packages whose code mcpvm itself ships (its dependencies); only native plugins pass any. */
  readonly trustedPackages?: ReadonlySet<string>;
  /**
   * mcpvm's own source folder (src/, or dist/src/ when built). Native plugins may import shared
   * helpers from it; those files are followed, audited and covered by the approval like the plugin's.
   */
  readonly hostSourceDir?: string;
  /** Scans of unchanged files from earlier audits (scan-cache.ts); without it every file is parsed. */
  readonly scans?: ScanCache;
  /** Cover the plugin's node_modules with the approval when it imports packages (user plugins, which run from a private copy). */
  readonly pinPackages?: boolean;
}

export const HOST_SOURCE_LABEL = "mcpvm:src/";

const MAX_FILES = 200;
/** Findings that mean the plugin may load a package from its node_modules. */
const IMPORTS_PACKAGES: ReadonlySet<AuditRuleId> = new Set(["unaudited-dependency", "dynamic-require", "dynamic-import"]);
const MAX_FILE_BYTES = 1024 * 1024;
const SOURCE_ALTERNATIVES: Readonly<Record<string, readonly string[]>> = { ".js": [".ts"], ".mjs": [".mts"], ".cjs": [".cts"] };
const IMPLICIT_EXTENSIONS = [".ts", ".mts", ".js", ".mjs", "/index.ts", "/index.js"];

let scanner: Promise<typeof scanSource> | undefined;

/** The scanner and its parser (Babel, 590 KB), loaded on the first file the scan cache does not know: an approved plugin's unchanged files never need it. */
function loadScanner(): Promise<typeof scanSource> {
  scanner ??= import("./scan-file.js").then((module) => module.scanSource);
  return scanner;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The file a relative specifier names. From TypeScript (native plugins under vitest) `./x.js` may
 * be x.ts and `./x` any of the implicit extensions. From JavaScript, Node runs the file: only the
 * exact name is accepted, since `require("./lib")` searches on its own way (lib.js before lib.ts,
 * a folder's package.json "main") and a guess here could audit a decoy beside the file that runs.
 */
async function resolveRelative(importer: string, target: string): Promise<string | undefined> {
  if (/\.[cm]?js$/.test(importer)) return (await isFile(target)) ? target : undefined;
  const extension = extname(target);
  const candidates = [target, ...(SOURCE_ALTERNATIVES[extension] ?? []).map((alt) => target.slice(0, -extension.length) + alt)];
  if (extension === "") candidates.push(...IMPLICIT_EXTENSIONS.map((suffix) => target + suffix));
  for (const candidate of candidates) if (await isFile(candidate)) return candidate;
  return undefined;
}

/**
 * The file Node's ESM loader loads for a relative specifier: it resolves the specifier as a URL, so
 * `?query` and `#fragment` are dropped, percent-escapes decoded, `\\` read as `/` and tabs removed.
 * Undefined when the URL names no file (an encoded `/`).
 */
function nodeUrlTarget(file: string, specifier: string): string | undefined {
  try {
    return fileURLToPath(new URL(specifier, pathToFileURL(file)));
  } catch {
    return undefined;
  }
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

class PluginAuditor {
  readonly files: AuditedFile[] = [];
  /** The bytes each audited file had when it was read and hashed, by its display path (private-copy.ts imports these). */
  readonly sources = new Map<string, Buffer>();
  readonly findings: AuditFinding[] = [];
  private readonly queued = new Set<string>();
  private readonly queue: string[] = [];
  private realRoots: string[] = [];
  private readonly auditedDirs = new Set<string>();

  constructor(private readonly input: AuditInput) {}

  async run(): Promise<void> {
    // A host source folder that does not exist (a test tree) simply matches nothing real.
    this.realRoots = await Promise.all(this.roots().map((root) => realpath(root).catch(() => resolve(root))));
    this.enqueue(resolve(this.input.entryFile));
    for (let file = this.queue.shift(); file !== undefined; file = this.queue.shift()) await this.auditFile(file);
    await this.addPackageFiles();
    if (this.input.pinPackages === true && this.findings.some((finding) => IMPORTS_PACKAGES.has(finding.rule))) await this.pinPackageTree();
  }

  /** A user plugin that imports packages: its node_modules is covered by the approval, byte for byte (package-tree.ts). */
  private async pinPackageTree(): Promise<void> {
    const tree = await readPackageTree(this.input.codeDir);
    if (tree === undefined) return;
    if (tree.problem !== undefined) {
      this.add("unpinned-dependencies", join(this.input.codeDir, "node_modules"), 0, 0, [], tree.problem);
      return;
    }
    for (const file of tree.files) this.files.push(file);
    for (const [path, bytes] of tree.sources) this.sources.set(path, bytes);
  }

  /**
   * The package.json files inside the code folder that Node consults for an audited file (its folder
   * and each one above it, up to the code folder): their "type" decides whether a .js file is a module,
   * and "imports"/"exports"/"main" what a specifier names. They are hashed like code, so changing one
   * makes the approval stale. A package.json above the code folder has no effect: the plugin runs
   * from its private copy (private-copy.ts), where only these exist.
   */
  private async addPackageFiles(): Promise<void> {
    const codeDir = resolve(this.input.codeDir);
    const dirs = new Set<string>();
    for (const start of this.auditedDirs) {
      for (let dir = start; inside(codeDir, dir); dir = dirname(dir)) {
        dirs.add(dir);
        if (dir === codeDir) break;
      }
    }
    for (const dir of [...dirs].sort()) {
      const file = join(dir, "package.json");
      if (this.sources.has(this.display(file))) continue;
      await this.readHashed(file, "the package.json", { missingIsFine: true });
    }
  }

  private roots(): string[] {
    return this.input.hostSourceDir === undefined ? [this.input.codeDir] : [this.input.codeDir, this.input.hostSourceDir];
  }

  private allowed(path: string, roots: readonly string[]): boolean {
    return roots.some((root) => inside(root, path));
  }

  /** The stable name of a file in findings and in the approval hash. */
  private display(file: string): string {
    const host = this.input.hostSourceDir;
    if (host !== undefined && !inside(this.input.codeDir, file) && inside(host, file)) return HOST_SOURCE_LABEL + toPosix(relative(host, file));
    return toPosix(relative(this.input.codeDir, file));
  }

  private enqueue(file: string): void {
    if (!this.queued.has(file)) {
      this.queued.add(file);
      this.queue.push(file);
    }
  }

  private add(rule: AuditRuleId, file: string, line: number, column: number, lines: readonly string[], detail: string): void {
    const definition = AUDIT_RULES[rule];
    const declared = definition.capability !== null && this.input.capabilities.includes(definition.capability);
    const excerpt = (lines[line - 1] ?? "").trim().slice(0, 200);
    const scope = definition.capability === null ? "" : declared ? ` (declared: ${definition.capability})` : ` (capability "${definition.capability}" is not declared in plugin.json)`;
    this.findings.push({
      rule,
      risk: effectiveRisk(rule, declared),
      capability: definition.capability,
      declared,
      blocking: definition.blocking,
      file: this.display(file),
      line,
      column,
      excerpt,
      message: `${definition.summary}: ${detail}${scope}`,
    });
  }

  /**
   * Reads a file that must stay inside the plugin's folders (a link out of them is a finding) and
   * records its bytes and digest as covered by the approval; undefined when it was not read.
   */
  private async readHashed(file: string, what: string, { missingIsFine }: { readonly missingIsFine: boolean }): Promise<{ bytes: Buffer; sha256: string } | undefined> {
    let bytes: Buffer;
    try {
      if (!this.allowed(await realpath(file), this.realRoots)) {
        this.add("import-outside-plugin", file, 0, 0, [], `${what} is a symbolic link out of the plugin folder`);
        return undefined;
      }
      bytes = await readFile(file);
    } catch (error) {
      if (missingIsFine && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      this.add("unresolved-import", file, 0, 0, [], `cannot read the file: ${(error as Error).message}`);
      return undefined;
    }
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    this.files.push({ path: this.display(file), sha256 });
    this.sources.set(this.display(file), bytes);
    return { bytes, sha256 };
  }

  private async auditFile(file: string): Promise<void> {
    if (this.files.length >= MAX_FILES) {
      this.add("parse-error", file, 0, 0, [], `more than ${MAX_FILES} files are imported; the audit stops here`);
      return;
    }
    const read = await this.readHashed(file, "the file", { missingIsFine: false });
    if (read === undefined) return;
    const { bytes, sha256 } = read;
    this.auditedDirs.add(dirname(file));
    if (file.endsWith(".json")) return;
    const text = bytes.toString("utf8");
    const lines = text.split(/\r?\n/);
    if (bytes.length > MAX_FILE_BYTES) {
      this.add("parse-error", file, 1, 1, lines, `the file is larger than ${MAX_FILE_BYTES} bytes`);
      return;
    }
    let findings: readonly RawFinding[];
    let references: readonly ModuleReference[];
    try {
      const cached = await this.input.scans?.get(sha256);
      ({ findings, references } = cached ?? (await loadScanner())(text, file));
      if (cached === undefined) this.input.scans?.set(sha256, { findings, references });
    } catch (error) {
      const loc = (error as { loc?: { line: number; column: number } }).loc;
      this.add("parse-error", file, loc?.line ?? 1, (loc?.column ?? 0) + 1, lines, (error as Error).message);
      return;
    }
    for (const finding of findings) this.add(finding.rule, file, finding.line, finding.column, lines, finding.detail);
    for (const reference of references) await this.follow(file, reference, lines);
  }

  private async follow(file: string, reference: ModuleReference, lines: readonly string[]): Promise<void> {
    const { specifier, line, column } = reference;
    const at = (rule: AuditRuleId, detail: string): void => this.add(rule, file, line, column, lines, detail);
    if (isBuiltin(specifier)) return;
    if (specifier.startsWith("#")) return at("unresolved-import", `"${specifier}": package subpath imports are not followed; use a relative import`);
    const local = specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("file:");
    if (!local) {
      const name = packageName(specifier);
      if (this.input.trustedPackages?.has(name)) return at("external-dependency", `"${specifier}"`);
      return at("unaudited-dependency", `"${specifier}"`);
    }
    const target = specifier.startsWith("file:") ? fileURLToPath(specifier) : resolve(dirname(file), specifier);
    if (!specifier.startsWith("file:") && nodeUrlTarget(file, specifier) !== target) {
      return at("unresolved-import", `"${specifier}" names a different file for \`import\` (a URL: ?, #, %, \\ and tabs change it) than for \`require\`; write a plain relative path`);
    }
    if (!this.allowed(target, this.roots())) return at("import-outside-plugin", `"${specifier}" leaves the plugin folder`);
    const found = await resolveRelative(file, target);
    if (found === undefined) {
      const fromJavaScript = /\.[cm]?js$/.test(file);
      return at("unresolved-import", fromJavaScript ? `"${specifier}" is not a file; from JavaScript the audit reads only the exact name (Node's own search could load another file), so write the file's full name` : `"${specifier}" does not exist`);
    }
    if (!this.allowed(await realpath(found), this.realRoots)) return at("import-outside-plugin", `"${specifier}" is a symbolic link out of the plugin folder`);
    this.enqueue(found);
  }
}

function highest(findings: readonly AuditFinding[]): RiskLevel | null {
  let best = -1;
  for (const finding of findings) best = Math.max(best, RISK_ORDER.indexOf(finding.risk));
  return best < 0 ? null : (RISK_ORDER[best] ?? null);
}

/**
 * Static audit of a plugin: parses the entry and every file it imports from its folder (following
 * relative imports, refusing any that leave it) and reports the dangerous capabilities it uses.
 * The file digests it returns are what an approval covers, so the audit and the approval always
 * see the same bytes.
 */
export async function auditPlugin(input: AuditInput): Promise<AuditReport> {
  return (await auditPluginWithSources(input)).report;
}

/** auditPlugin, plus the bytes of every file it hashed (by path in the report), so what runs can be exactly what was hashed. */
export async function auditPluginWithSources(input: AuditInput): Promise<{ report: AuditReport; sources: ReadonlyMap<string, Buffer> }> {
  const auditor = new PluginAuditor(input);
  await auditor.run();
  await input.scans?.save();
  const findings = [...auditor.findings].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
  const used = new Set(findings.flatMap((finding) => (finding.capability === null ? [] : [finding.capability])));
  const report: AuditReport = {
    plugin: input.name,
    codeDir: input.codeDir,
    files: [...auditor.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    findings,
    highestRisk: highest(findings),
    blocked: findings.some((finding) => finding.blocking),
    undeclaredCapabilities: [...new Set(findings.flatMap((finding) => (finding.capability !== null && !finding.declared ? [finding.capability] : [])))].sort(),
    unusedCapabilities: input.capabilities.filter((capability) => !used.has(capability)),
  };
  return { report, sources: auditor.sources };
}
