import { lstat, mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readPackageTree } from "../../src/plugin-system/audit/package-tree.js";
import { PluginManager, type PluginManagerOptions } from "../../src/plugin-system/index.js";
import { callHostFunction, makeWorld, manifestText, writeFiles, type TempWorld } from "./helpers.js";

// A user plugin's packages are not audited, but what runs is still what was approved: the plugin's
// node_modules is hashed with its sources and copied into the private copy from those bytes.

let world: TempWorld;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

function manager(overrides: Partial<PluginManagerOptions> = {}): PluginManager {
  return new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, user: "tester", ...overrides });
}

const registration = (name: string): string => `import { greeting } from "greeter";
export default {
  name: ${JSON.stringify(name)},
  declaredModules: [${JSON.stringify(name)}],
  configSchema: { safeParse: (value) => ({ success: true, data: value }) },
  createHostFunctions() { return { ${JSON.stringify(name)}: { hello: () => greeting } }; },
};
`;

const greeter = (text: string): Record<string, string> => ({
  "node_modules/greeter/package.json": JSON.stringify({ name: "greeter", version: "1.0.0", type: "module", exports: "./index.js" }),
  "node_modules/greeter/index.js": `export const greeting = ${JSON.stringify(text)};\n`,
});

async function pluginWithPackage(name: string): Promise<string> {
  const dir = join(world.paths.userPluginsDir, name);
  await writeFiles(dir, { "plugin.json": manifestText(name), "index.mjs": registration(name), ...greeter("approved") });
  return dir;
}

describe("a user plugin's packages are pinned by its approval", () => {
  it("runs the package's approved bytes from its private copy, even when the folder's copy is swapped just before the import", async () => {
    const dir = await pluginWithPackage("pinned");
    const plugins = manager({
      importModule: async (url) => {
        await writeFile(join(dir, "node_modules", "greeter", "index.js"), `export const greeting = "swapped";\n`);
        return import(url);
      },
    });
    const audit = await plugins.audit("pinned");
    expect(audit.findings.map((finding) => finding.rule)).toEqual(["unaudited-dependency"]);
    expect(audit.files.map((file) => file.path)).toEqual(["index.mjs", "node_modules/greeter/index.js", "node_modules/greeter/package.json"]);
    await plugins.approve("pinned");
    await plugins.enable("pinned");
    const loaded = await plugins.loadHostModules();
    expect(loaded.refused).toEqual([]);
    expect(await callHostFunction(loaded.modules, "pinned", "hello")).toBe("approved");
    await plugins.dispose();
  });

  it("a package changed after approval (an install, an edited file) makes the approval stale, named in the error", async () => {
    const dir = await pluginWithPackage("updated");
    const plugins = manager();
    await plugins.approve("updated");
    await plugins.enable("updated");
    await writeFiles(dir, greeter("version two"));
    expect((await plugins.list()).plugins.find((plugin) => plugin.name === "updated")?.approval).toBe("stale");
    const again = await plugins.loadHostModules();
    expect(again.refused.map(({ error }) => error.code)).toEqual(["PLUGIN_APPROVAL_STALE"]);
    expect(again.refused[0]?.error.message).toContain("index.mjs, node_modules (2 files)");
  });

  it("a package linked from outside the plugin's node_modules cannot be approved", async () => {
    const dir = join(world.paths.userPluginsDir, "linked");
    await writeFiles(dir, { "plugin.json": manifestText("linked"), "index.mjs": registration("linked") });
    const outside = join(world.paths.userPluginsDir, "..", "elsewhere", "greeter");
    await writeFiles(outside, { "index.js": `export const greeting = "outside";\n` });
    await mkdir(join(dir, "node_modules"));
    await symlink(outside, join(dir, "node_modules", "greeter"), "dir");
    const audit = await manager().audit("linked");
    expect(audit.blocked).toBe(true);
    const finding = audit.findings.find((f) => f.rule === "unpinned-dependencies");
    expect(finding?.message).toContain("node_modules/greeter is a symbolic link out of the plugin's node_modules");
    await expect(manager().approve("linked")).rejects.toThrow(/cannot be approved until these are fixed/);
  });

  it("a plugin that imports no package gets no node_modules in its copy", async () => {
    const dir = join(world.paths.userPluginsDir, "plain");
    await writeFiles(dir, {
      "plugin.json": manifestText("plain"),
      "index.mjs": registration("plain").replace(`import { greeting } from "greeter";`, `const greeting = "plain";`),
      ...greeter("unused"),
    });
    const plugins = manager();
    expect((await plugins.audit("plain")).files.map((file) => file.path)).toEqual(["index.mjs"]);
    await plugins.approve("plain");
    await plugins.enable("plain");
    const loaded = await plugins.loadHostModules();
    expect(await callHostFunction(loaded.modules, "plain", "hello")).toBe("plain");
    await plugins.dispose();
    const copies = world.paths.pluginCodeDir;
    const [copy] = (await readdir(copies)).filter((entry) => !entry.startsWith("."));
    await expect(lstat(join(copies, copy as string, "node_modules"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("readPackageTree", () => {
  it("refuses a tree past its limits with what to do, and skips .bin", async () => {
    const dir = join(world.paths.userPluginsDir, "big");
    await writeFiles(dir, {
      "node_modules/.bin/tool": "#!/bin/sh\n",
      "node_modules/a/index.js": "export default 1;\n",
      "node_modules/b/index.js": "export default 2;\n",
    });
    const whole = await readPackageTree(dir);
    expect(whole?.problem).toBeUndefined();
    expect(whole?.files.map((file) => file.path)).toEqual(["node_modules/a/index.js", "node_modules/b/index.js"]);
    const capped = await readPackageTree(dir, { files: 1, bytes: 1024 });
    expect(capped?.problem).toMatch(/more than 1 files .* bundle the plugin/);
    expect(await readPackageTree(join(dir, "missing"))).toBeUndefined();
  });
});
