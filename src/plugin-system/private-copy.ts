import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { PluginSnapshot } from "./snapshot.js";

/*
 * A user plugin runs from a private, content-addressed copy of the bytes its approval hash was taken
 * of, not from its folder. Importing from the folder left a window: a file swapped between the hash
 * check and Node's import (or a relative import Node reads later) ran unapproved. The copy lives in
 * the config home (0700) under the approval hash, so relative imports between the plugin's files
 * work unchanged, and only the package.json files the audit hashed are there to decide module types.
 * A plugin that imports packages has its node_modules in the copy too, from the bytes the approval
 * covers (audit/package-tree.ts), so an install or a swapped file there runs nothing unapproved.
 */

const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Whether `dir` holds every source with exactly the hashed bytes (a copy left by an earlier run, untouched). */
async function intact(dir: string, snapshot: PluginSnapshot): Promise<boolean> {
  for (const file of snapshot.audit.files) {
    const bytes = await readFile(join(dir, file.path)).catch(() => undefined);
    if (bytes === undefined || sha256(bytes) !== file.sha256) return false;
  }
  // A copy written before its package.json was chosen from the sources (`{}`) is written again.
  if (snapshot.sources.has("package.json")) return true;
  const written = await readFile(join(dir, "package.json"), "utf8").catch(() => undefined);
  return written === (await packageJsonText(snapshot));
}

async function writeCopy(dir: string, snapshot: PluginSnapshot): Promise<void> {
  for (const file of snapshot.audit.files) {
    const bytes = snapshot.sources.get(file.path);
    // The audit keeps the bytes of every file it lists; a gap would mean running something unhashed.
    if (bytes === undefined || sha256(bytes) !== file.sha256) throw new Error(`the audited bytes of ${file.path} are missing`);
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, bytes, { mode: 0o600 });
  }
  // Without a package.json of the plugin's own, one above the copy must not decide how .js files load.
  if (!snapshot.sources.has("package.json")) await writeFile(join(dir, "package.json"), await packageJsonText(snapshot), { mode: 0o600 });
}

const packageJsonText = async (snapshot: PluginSnapshot): Promise<string> => `${JSON.stringify(await ownPackageJson(snapshot))}\n`;

/**
 * The package.json written into a copy of a plugin that has none. A `{}` made Node warn on every run
 * (MODULE_TYPELESS_PACKAGE_JSON, naming this copy, which the user never wrote) for a plugin whose
 * .js files are ES modules, as docs/PLUGINS.md writes them; so when every .js file has an import or
 * export declaration they are declared modules. Otherwise (CommonJS files) `{}` keeps Node's own
 * per-file detection, as in a folder without a package.json.
 */
async function ownPackageJson(snapshot: PluginSnapshot): Promise<Record<string, string>> {
  const scripts = snapshot.audit.files.filter((file) => file.path.endsWith(".js") && !file.path.split(/[\\/]/).includes("node_modules"));
  if (scripts.length === 0) return {};
  // The parser (590 KB) is loaded only for a user plugin without a package.json, never on a plain run's path.
  const { parseSource } = await import("./audit/ast.js");
  const esm = scripts.every((file) => hasModuleSyntax(parseSource, snapshot.sources.get(file.path), file.path));
  return esm ? { type: "module" } : {};
}

function hasModuleSyntax(parseSource: typeof import("./audit/ast.js").parseSource, bytes: Buffer | undefined, path: string): boolean {
  if (bytes === undefined) return false;
  try {
    return parseSource(bytes.toString("utf8"), path).program.body.some((node) => MODULE_DECLARATIONS.has(node.type));
  } catch {
    return false;
  }
}

const MODULE_DECLARATIONS: ReadonlySet<string> = new Set(["ImportDeclaration", "ExportNamedDeclaration", "ExportDefaultDeclaration", "ExportAllDeclaration"]);

/**
 * The entry file to import for `snapshot`: inside `root/<approval hash>/`, written from the snapshot's
 * bytes the first time and checked against their digests every later time (rewritten if changed).
 */
export async function privateEntryFile(root: string, snapshot: PluginSnapshot): Promise<string> {
  const dir = join(root, snapshot.hash);
  const entry = join(dir, relative(snapshot.plugin.codeDir, snapshot.plugin.entryFile).split(sep).join("/"));
  await mkdir(root, { recursive: true, mode: 0o700 });
  if ((await exists(dir)) && (await intact(dir, snapshot))) return entry;
  const scratch = await mkdtemp(join(root, ".partial-"));
  try {
    await writeCopy(scratch, snapshot);
    await rm(dir, { recursive: true, force: true });
    await rename(scratch, dir);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    // Another process may have written the same copy at the same moment; that copy is as good.
    if (!((await exists(dir)) && (await intact(dir, snapshot)))) throw error;
  }
  return entry;
}
