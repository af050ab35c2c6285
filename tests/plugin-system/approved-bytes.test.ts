import { execFileSync } from "node:child_process";
import { lstat, mkdir, open, readdir, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { constants } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readPackageTree } from "../../src/plugin-system/audit/package-tree.js";
import { PluginManager, type PluginManagerOptions } from "../../src/plugin-system/index.js";
import { callHostFunction, makeWorld, manifestText, writeFiles, type TempWorld } from "./helpers.js";

// What runs is what was approved: a user plugin is imported from a private copy of the bytes the
// approval hash was taken of (private-copy.ts), and its package.json is part of that hash. Its packages
// are not audited, but its node_modules is hashed with its sources and copied from those bytes too.

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

const greeter = (text: string): Record<string, string> => ({
  "node_modules/greeter/package.json": JSON.stringify({ name: "greeter", version: "1.0.0", type: "module", exports: "./index.js" }),
  "node_modules/greeter/index.js": `export const greeting = ${JSON.stringify(text)};\n`,
});

async function pluginWithPackage(name: string): Promise<string> {
  const dir = join(world.paths.userPluginsDir, name);
  await writeFiles(dir, { "plugin.json": manifestText(name), "index.mjs": registration(name, "greeter"), ...greeter("approved") });
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
    await writeFiles(dir, { "plugin.json": manifestText("linked"), "index.mjs": registration("linked", "greeter") });
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
      "index.mjs": registration("plain", "greeter").replace(`import { greeting } from "greeter";`, `const greeting = "plain";`),
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

  it("refuses one file past the byte cap by its size, without reading it (a sparse 3 GiB file)", async () => {
    const dir = join(world.paths.userPluginsDir, "huge");
    await writeFiles(dir, { "node_modules/a/index.js": "export default 1;\n", "node_modules/a/data.bin": "" });
    await truncate(join(dir, "node_modules/a/data.bin"), 3 * 1024 ** 3);
    const tree = await readPackageTree(dir);
    expect(tree?.problem).toMatch(/more than 4000 files or 32 MB; bundle the plugin/);
  });

  it("refuses a link to a FIFO instead of blocking on it for good", async () => {
    const dir = join(world.paths.userPluginsDir, "fifo");
    await writeFiles(dir, { "node_modules/pkg/index.js": "export default 1;\n" });
    execFileSync("mkfifo", [join(dir, "node_modules/pkg/pipe")]);
    await symlink("pkg/pipe", join(dir, "node_modules/a-link"));
    const read = readPackageTree(dir);
    const late = await Promise.race([read.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 5_000))]);
    // A reader stuck on the FIFO is let go (a writer opens and closes it), so a failing run still ends.
    if (late) await (await open(join(dir, "node_modules/pkg/pipe"), constants.O_WRONLY | constants.O_NONBLOCK)).close();
    expect(late).toBe(false);
    expect((await read)?.problem).toBe("node_modules/a-link is a symbolic link to neither a file nor a folder");
  });
});
