import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compiledEntryPath, discoverPlugins, type DiscoveryOptions } from "../../src/plugin-system/index.js";
import { installEcho, makeWorld, manifestText, simpleUserPlugin, writeFiles, type TempWorld } from "./helpers.js";

let world: TempWorld;
let options: DiscoveryOptions;

beforeEach(async () => {
  world = await makeWorld();
  options = { packageRoot: world.packageRoot, userPluginsDir: world.paths.userPluginsDir, compiled: false };
});
afterEach(() => world.cleanup());

describe("discovering plugins", () => {
  it("finds native plugins in <packageRoot>/plugins and user plugins in the config home", async () => {
    await installEcho(world);
    await writeFiles(join(world.paths.userPluginsDir, "weather"), simpleUserPlugin("weather"));
    const { plugins, errors } = await discoverPlugins(options);
    expect(errors).toEqual([]);
    expect(plugins.map((plugin) => [plugin.name, plugin.source])).toEqual([["echo", "native"], ["weather", "user"]]);
    const echo = plugins[0]!;
    expect(echo.entryFile).toBe(join(world.packageRoot, "plugins", "echo", "index.ts"));
    expect(echo.codeDir).toBe(join(world.packageRoot, "plugins", "echo"));
    expect(echo.hostSourceDir).toBe(join(world.packageRoot, "src"));
    expect(plugins[1]!.hostSourceDir).toBeUndefined();
  });

  it("runs native plugins from dist/plugins/<name>/<entry>.js in the compiled build", async () => {
    await installEcho(world);
    await writeFiles(join(world.packageRoot, "dist", "plugins", "echo"), { "index.js": "export default {};\n" });
    const { plugins, errors } = await discoverPlugins({ ...options, compiled: true });
    expect(errors).toEqual([]);
    expect(plugins[0]).toMatchObject({
      dir: join(world.packageRoot, "plugins", "echo"),
      codeDir: join(world.packageRoot, "dist", "plugins", "echo"),
      entryFile: join(world.packageRoot, "dist", "plugins", "echo", "index.js"),
      hostSourceDir: join(world.packageRoot, "dist", "src"),
    });
    expect(compiledEntryPath("src/main.mts")).toBe("src/main.mjs");
  });

  it("says to build when the compiled entry is missing", async () => {
    await installEcho(world);
    const { plugins, errors } = await discoverPlugins({ ...options, compiled: true });
    expect(plugins).toEqual([]);
    expect(errors.map((error) => error.code)).toEqual(["PLUGIN_ENTRY_MISSING"]);
    expect(errors[0]!.message).toContain("npm run build");
  });

  it("refuses a user plugin that shadows a native name, and keeps the native one", async () => {
    await installEcho(world);
    await writeFiles(join(world.paths.userPluginsDir, "echo"), simpleUserPlugin("echo"));
    const { plugins, errors } = await discoverPlugins(options);
    expect(plugins.map((plugin) => `${plugin.name}:${plugin.source}`)).toEqual(["echo:native"]);
    expect(errors.map((error) => error.code)).toEqual(["PLUGIN_SHADOWS_NATIVE"]);
    expect(errors[0]!.message).toContain(`"echo"`);
  });

  it("reports each broken folder and still returns the good plugins", async () => {
    const user = world.paths.userPluginsDir;
    await writeFiles(join(user, "good"), simpleUserPlugin("good"));
    await writeFiles(join(user, "renamed"), simpleUserPlugin("other"));
    await writeFiles(join(user, "typed"), { ...simpleUserPlugin("typed"), "plugin.json": manifestText("typed", { entry: "index.ts" }) });
    await writeFiles(join(user, "claims-native"), { ...simpleUserPlugin("claims-native"), "plugin.json": manifestText("claims-native", { native: true }) });
    await writeFiles(join(user, "prefix"), { ...simpleUserPlugin("prefix"), "plugin.json": manifestText("prefix", { modulePrefixes: ["mcp-"] }) });
    await writeFiles(join(user, "no-entry"), { "plugin.json": manifestText("no-entry") });
    await writeFiles(join(user, "no-dts"), { ...simpleUserPlugin("no-dts"), "plugin.json": manifestText("no-dts", { declarations: "module.d.ts" }) });
    await writeFiles(join(user, "bad-json"), { "plugin.json": "{" });
    await mkdir(join(user, "empty"));
    await writeFile(join(user, "stray-file.txt"), "not a plugin");
    const { plugins, errors } = await discoverPlugins(options);
    expect(plugins.map((plugin) => plugin.name)).toEqual(["good"]);
    expect(errors.map((error) => [error.data?.file ?? error.data?.plugin, error.code])).toEqual([
      [join(user, "bad-json", "plugin.json"), "PLUGIN_MANIFEST_INVALID_JSON"],
      [join(user, "claims-native", "plugin.json"), "PLUGIN_NATIVE_FLAG_FORBIDDEN"],
      [join(user, "empty", "plugin.json"), "PLUGIN_MANIFEST_UNREADABLE"],
      [join(user, "no-dts", "plugin.json"), "PLUGIN_DECLARATIONS_MISSING"],
      [join(user, "no-entry", "plugin.json"), "PLUGIN_ENTRY_MISSING"],
      [join(user, "prefix", "plugin.json"), "PLUGIN_RESERVED_PREFIX"],
      [join(user, "renamed", "plugin.json"), "PLUGIN_NAME_MISMATCH"],
      [join(user, "typed", "plugin.json"), "PLUGIN_ENTRY_INVALID_PATH"],
    ]);
  });

  // The declarations text goes to the model as is: a plugin shipping `module.d.ts -> ~/.ssh/id_ed25519`
  // would hand any file of yours to the model (and to its provider), and the audit looked only at code.
  it("refuses a declarations file that is a symbolic link out of the plugin folder", async () => {
    const user = world.paths.userPluginsDir;
    await writeFile(join(world.root, "private-key"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    await writeFiles(join(user, "leaky"), { ...simpleUserPlugin("leaky"), "plugin.json": manifestText("leaky", { declarations: "module.d.ts" }) });
    await symlink(join(world.root, "private-key"), join(user, "leaky", "module.d.ts"));
    const { plugins, errors } = await discoverPlugins(options);
    expect(plugins.map((plugin) => plugin.name)).toEqual([]);
    expect(errors.map((error) => [error.data?.plugin, error.code])).toEqual([["leaky", "PLUGIN_DECLARATIONS_OUTSIDE"]]);
    expect(errors[0]?.message).toMatch(/module\.d\.ts.*leads outside the plugin folder/);
  });

  it("finds nothing (and no error) when neither folder exists", async () => {
    expect(await discoverPlugins({ ...options, packageRoot: join(world.root, "nowhere") })).toEqual({ plugins: [], errors: [] });
  });
});
