import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { PluginError } from "./errors.js";
import { loadManifest, RESERVED_MODULE_PREFIXES, type PluginManifest } from "./manifest.js";

export type PluginSource = "native" | "user";

export interface DiscoveredPlugin {
  readonly name: string;
  readonly source: PluginSource;
  /** The folder holding plugin.json (and the declarations file and any data files). */
  readonly dir: string;
  readonly manifestFile: string;
  readonly manifest: PluginManifest;
  /** The folder the code runs from (dist/plugins/<name> for a built native plugin); imports may not leave it. */
  readonly codeDir: string;
  readonly entryFile: string;
  /** Native plugins only: mcpvm's own source folder, from which they may import shared helpers. */
  readonly hostSourceDir: string | undefined;
}

export interface DiscoveryOptions {
  /** mcpvm's package root: native plugins live in <packageRoot>/plugins, built ones in <packageRoot>/dist/plugins. */
  readonly packageRoot: string;
  readonly userPluginsDir: string;
  /** Whether the running code is the compiled build (isCompiledBuild()); decides where native entries are. */
  readonly compiled: boolean;
  /**
   * Only the folders this accepts are inspected (manifest validated, files checked); the others are
   * listed in `skipped` unread. A run inspects only the plugins config.json enables (./plan.ts).
   */
  readonly only?: (folder: string) => boolean;
}

/** A plugin folder `only` left out: not read, so neither valid nor invalid as far as discovery knows. */
export interface SkippedPluginFolder {
  readonly folder: string;
  readonly dir: string;
  readonly source: PluginSource;
}

/** Plugins found, plus one error per folder that could not be used; one broken plugin never hides the others. */
export interface DiscoveryResult {
  readonly plugins: readonly DiscoveredPlugin[];
  readonly errors: readonly PluginError[];
  /** The folders `only` left out (none without it); a user folder with a native plugin's name is not among them. */
  readonly skipped?: readonly SkippedPluginFolder[];
}

/** The compiled counterpart of a TypeScript entry: index.ts -> index.js, main.mts -> main.mjs. */
export function compiledEntryPath(entry: string): string {
  return entry.replace(/\.mts$/, ".mjs").replace(/\.ts$/, ".js");
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw cause;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Whether `path`, links resolved, lies inside `dir` (links resolved too). */
async function staysInside(dir: string, path: string): Promise<boolean> {
  const [root, real] = await Promise.all([realpath(dir), realpath(path)]);
  const rel = relative(root, real);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function inspectFolder(folder: string, dir: string, source: PluginSource, options: DiscoveryOptions): Promise<DiscoveredPlugin> {
  const manifestFile = join(dir, "plugin.json");
  const { manifest } = await loadManifest(manifestFile);
  const data = { plugin: manifest.name, file: manifestFile };
  if (manifest.name !== folder) {
    throw new PluginError("PLUGIN_NAME_MISMATCH", `${manifestFile}: name "${manifest.name}" must equal its folder name "${folder}"`, { data });
  }
  if (source === "user") {
    if (manifest.native === true) {
      throw new PluginError("PLUGIN_NATIVE_FLAG_FORBIDDEN", `${manifestFile}: "native" may only be set by plugins shipped with mcpvm; remove it`, { data });
    }
    const reserved = manifest.modulePrefixes.find((prefix) => RESERVED_MODULE_PREFIXES.some((r) => prefix.startsWith(r)));
    if (reserved !== undefined) {
      throw new PluginError("PLUGIN_RESERVED_PREFIX", `${manifestFile}: modulePrefixes "${reserved}" is reserved for mcpvm's own plugins`, { data });
    }
    if (!/\.m?js$/.test(manifest.entry)) {
      throw new PluginError("PLUGIN_ENTRY_INVALID_PATH", `${manifestFile}: entry "${manifest.entry}" must be a plain .js or .mjs file for a user plugin`, { data });
    }
  }
  const codeDir = source === "native" && options.compiled ? join(options.packageRoot, "dist", "plugins", folder) : dir;
  const entryFile = join(codeDir, source === "native" && options.compiled ? compiledEntryPath(manifest.entry) : manifest.entry);
  if (!(await isFile(entryFile))) {
    const hint = source === "native" && options.compiled ? " (run `npm run build`)" : "";
    throw new PluginError("PLUGIN_ENTRY_MISSING", `plugin ${manifest.name}: entry file ${entryFile} does not exist${hint}`, { data: { ...data, entryFile } });
  }
  if (manifest.declarations !== undefined && !(await isFile(join(dir, manifest.declarations)))) {
    throw new PluginError("PLUGIN_DECLARATIONS_MISSING", `${manifestFile}: declarations file "${manifest.declarations}" does not exist`, { data });
  }
  // Its text goes to the model verbatim, so it must be the plugin's own file, not a link to one of yours.
  if (manifest.declarations !== undefined && !(await staysInside(dir, join(dir, manifest.declarations)))) {
    throw new PluginError("PLUGIN_DECLARATIONS_OUTSIDE", `${manifestFile}: declarations file "${manifest.declarations}" is a symbolic link that leads outside the plugin folder; put the file itself in the folder`, { data });
  }
  const hostSourceDir = source === "native" ? join(options.packageRoot, ...(options.compiled ? ["dist", "src"] : ["src"])) : undefined;
  return { name: manifest.name, source, dir, manifestFile, manifest, codeDir, entryFile, hostSourceDir };
}

async function scan(root: string, source: PluginSource, options: DiscoveryOptions, errors: PluginError[], skipped: SkippedPluginFolder[]): Promise<DiscoveredPlugin[]> {
  const found: DiscoveredPlugin[] = [];
  for (const folder of await subfolders(root)) {
    if (options.only !== undefined && !options.only(folder)) {
      skipped.push({ folder, dir: join(root, folder), source });
      continue;
    }
    try {
      found.push(await inspectFolder(folder, join(root, folder), source, options));
    } catch (error) {
      if (!(error instanceof PluginError)) throw error;
      // Tag every problem with the folder name so `plugin info <name>` can show why <name> is missing.
      errors.push(error.data?.plugin === folder ? error : new PluginError(error.code, error.message, { data: { ...error.data, plugin: folder }, cause: error }));
    }
  }
  return found;
}

/** Native plugins from <packageRoot>/plugins/*, user plugins from the config home; a user plugin may not shadow a native one. */
export async function discoverPlugins(options: DiscoveryOptions): Promise<DiscoveryResult> {
  const errors: PluginError[] = [];
  const skipped: SkippedPluginFolder[] = [];
  const native = await scan(join(options.packageRoot, "plugins"), "native", options, errors, skipped);
  const nativeNames = new Set([...native.map((plugin) => plugin.name), ...skipped.map((folder) => folder.folder)]);
  const user: DiscoveredPlugin[] = [];
  const userSkipped = skipped.length;
  for (const plugin of await scan(options.userPluginsDir, "user", options, errors, skipped)) {
    if (nativeNames.has(plugin.name)) {
      errors.push(
        new PluginError("PLUGIN_SHADOWS_NATIVE", `user plugin ${plugin.dir} has the name of mcpvm's native plugin "${plugin.name}"; rename its folder and "name"`, {
          data: { plugin: plugin.name, file: plugin.manifestFile },
        }),
      );
      continue;
    }
    user.push(plugin);
  }
  // A user folder shadowing a native plugin is an error when inspected; skipped, it is simply left out.
  const kept = [...skipped.slice(0, userSkipped), ...skipped.slice(userSkipped).filter((folder) => !nativeNames.has(folder.folder))];
  return { plugins: [...native, ...user], errors, ...(options.only === undefined ? {} : { skipped: kept }) };
}
