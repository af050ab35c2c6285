import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveConfigPaths, type ConfigPaths } from "../../src/config/paths.js";
import { isLazyHostModule, type HostModules } from "../../src/sandbox/types.js";

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = join(here, "fixtures");
const REPO_NODE_MODULES = resolve(here, "../../node_modules");

/** A throw-away mcpvm installation: a package root with plugins/, a config home, and node_modules reachable from both. */
export interface TempWorld {
  readonly root: string;
  readonly packageRoot: string;
  readonly paths: ConfigPaths;
  cleanup(): Promise<void>;
}

export async function makeWorld(): Promise<TempWorld> {
  const root = await mkdtemp(join(tmpdir(), "mcpvm-plugins-"));
  // Plugins resolve bare imports (zod) by walking up to here, as they would inside an installed mcpvm.
  await symlink(REPO_NODE_MODULES, join(root, "node_modules"), "dir");
  const packageRoot = join(root, "pkg");
  await mkdir(join(packageRoot, "plugins"), { recursive: true });
  await writeFile(join(packageRoot, "package.json"), JSON.stringify({ name: "mcpvm", dependencies: { zod: "^4" } }));
  const paths = resolveConfigPaths({ MCPVM_HOME: join(root, "home") });
  await mkdir(paths.home, { recursive: true });
  return { root, packageRoot, paths, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Write files (relative path -> text) under dir. */
export async function writeFiles(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** plugin.json text with sensible defaults for a plugin named `name`. */
export function manifestText(name: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      name,
      version: "1.0.0",
      description: `The ${name} test plugin.`,
      entry: "index.mjs",
      hostModules: [{ name, description: `The ${name} module.`, functions: { hello: "Says hello." } }],
      capabilities: [],
      configSchema: { type: "object" },
      hints: [],
      ...overrides,
    },
    null,
    2,
  );
}

/** A minimal working user plugin (plain .mjs, duck-typed config schema, no imports). */
export function simpleUserPlugin(name: string, body = `{ [${JSON.stringify(name)}]: { hello: () => "hello from ${name}" } }`): Record<string, string> {
  return {
    "plugin.json": manifestText(name),
    "index.mjs": `const configSchema = { safeParse: (value) => ({ success: true, data: value }) };
export default {
  name: ${JSON.stringify(name)},
  declaredModules: [${JSON.stringify(name)}],
  configSchema,
  createHostFunctions() { return ${body}; },
};
`,
  };
}

/** Copy the echo fixture (TypeScript, imports zod and a helper) in as a native plugin. */
export async function installEcho(world: TempWorld): Promise<string> {
  const dir = join(world.packageRoot, "plugins", "echo");
  await cp(join(FIXTURES, "echo"), dir, { recursive: true });
  return dir;
}

/** Calls a loaded host function the way an engine would (loading a lazy module first). */
export async function callHostFunction(modules: HostModules, module: string, fn: string, ...args: unknown[]): Promise<unknown> {
  const context = { signal: new AbortController().signal, deadline: Date.now() + 1000 };
  const entry = modules[module];
  if (entry === undefined) throw new Error(`no module ${module}`);
  const functions = isLazyHostModule(entry) ? await entry.load(context) : entry;
  const implementation = functions[fn];
  if (implementation === undefined) throw new Error(`no function ${module}.${fn}`);
  return implementation(args, { module, fn, ...context });
}
