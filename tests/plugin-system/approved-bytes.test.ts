import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginManager, type PluginManagerOptions } from "../../src/plugin-system/index.js";
import { callHostFunction, makeWorld, manifestText, writeFiles, type TempWorld } from "./helpers.js";

// What runs is what was approved: a user plugin is imported from a private copy of the bytes the
// approval hash was taken of (private-copy.ts), and its package.json is part of that hash.

let world: TempWorld;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

function manager(overrides: Partial<PluginManagerOptions> = {}): PluginManager {
  return new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, user: "tester", ...overrides });
}

const registration = (name: string, from: string): string => `import { greeting } from ${JSON.stringify(from)};
export default {
  name: ${JSON.stringify(name)},
  declaredModules: [${JSON.stringify(name)}],
  configSchema: { safeParse: (value) => ({ success: true, data: value }) },
  createHostFunctions() { return { ${JSON.stringify(name)}: { hello: () => greeting } }; },
};
`;

describe("a user plugin runs the bytes that were hashed", () => {
  it("a file swapped between the approval check and the import does not run; relative imports still work", async () => {
    const dir = join(world.paths.userPluginsDir, "swappy");
    await writeFiles(dir, {
      "plugin.json": manifestText("swappy"),
      "index.mjs": registration("swappy", "./lib/greeting.mjs"),
      "lib/greeting.mjs": `export const greeting = "approved";\n`,
    });
    // The importer runs after the hash check: it swaps both files just before Node reads them.
    const plugins = manager({
      importModule: async (url) => {
        await writeFile(join(dir, "index.mjs"), registration("swappy", "./lib/evil.mjs"));
        await writeFile(join(dir, "lib", "greeting.mjs"), `export const greeting = "swapped";\n`);
        await writeFile(join(dir, "lib", "evil.mjs"), `export const greeting = "evil";\n`);
        return import(url);
      },
    });
    await plugins.approve("swappy");
    await plugins.enable("swappy");
    const loaded = await plugins.loadHostModules();
    expect(loaded.refused).toEqual([]);
    expect(await callHostFunction(loaded.modules, "swappy", "hello")).toBe("approved");
    await plugins.dispose();
    // The copy is private to the config home's owner.
    expect((await stat(world.paths.pluginCodeDir)).mode & 0o077).toBe(0);
    // The next load sees the swapped files and refuses them as a change.
    const again = await manager().loadHostModules();
    expect(again.refused.map(({ error }) => error.code)).toEqual(["PLUGIN_APPROVAL_STALE"]);
  });

  it("a package.json in the plugin folder is hashed: changing it needs a new approval, and the copy keeps its \"type\"", async () => {
    const dir = join(world.paths.userPluginsDir, "typed");
    await writeFiles(dir, {
      "plugin.json": manifestText("typed", { entry: "index.js" }),
      "package.json": JSON.stringify({ type: "module" }),
      "index.js": registration("typed", "./greeting.js"),
      "greeting.js": `export const greeting = "esm";\n`,
    });
    const plugins = manager();
    expect((await plugins.audit("typed")).files.map((file) => file.path)).toEqual(["greeting.js", "index.js", "package.json"]);
    await plugins.approve("typed");
    await plugins.enable("typed");
    const loaded = await plugins.loadHostModules();
    expect(loaded.refused).toEqual([]);
    expect(await callHostFunction(loaded.modules, "typed", "hello")).toBe("esm");
    await plugins.dispose();

    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", imports: { "#g": "./elsewhere.js" } }));
    expect((await plugins.list()).plugins.find((plugin) => plugin.name === "typed")?.approval).toBe("stale");
    const again = await plugins.loadHostModules();
    expect(again.refused.map(({ error }) => error.code)).toEqual(["PLUGIN_APPROVAL_STALE"]);
    expect(again.refused[0]?.error.message).toContain("package.json");
  });
});
