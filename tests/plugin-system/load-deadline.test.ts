import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginManager } from "../../src/plugin-system/manager.js";
import { callHostFunction, makeWorld, manifestText, simpleUserPlugin, writeFiles, type TempWorld } from "./helpers.js";

let world: TempWorld;

beforeEach(async () => {
  world = await makeWorld();
});

afterEach(async () => {
  await world.cleanup();
});

// Plugins loaded one after another: a plugin whose top-level await or createHostFunctions never settled
// stalled every plugin after it, and `mcpvm run` reported only the script's WALL_LIMIT. They now load side
// by side (tests/cli/plugin-stuck-side-by-side.test.ts checks that the waits no longer add up).
describe("a plugin that never finishes loading", () => {
  it("is given up on with PLUGIN_LOAD_FAILED naming it and the step, and the others still load", async () => {
    const user = world.paths.userPluginsDir;
    const stuckImport = simpleUserPlugin("alpha");
    await writeFiles(join(user, "alpha"), { ...stuckImport, "index.mjs": `await new Promise(() => {});\n${stuckImport["index.mjs"]}` });
    await writeFiles(join(user, "beta"), simpleUserPlugin("beta", "new Promise(() => {})"));
    await writeFiles(join(user, "fine"), simpleUserPlugin("fine"));
    const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, loadTimeoutMs: 200 });
    for (const name of ["alpha", "beta", "fine"]) {
      await plugins.approve(name);
      await plugins.enable(name);
    }
    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual(["fine"]);
    expect(await callHostFunction(loaded.modules, "fine", "hello")).toBe("hello from fine");
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([
      ["alpha", "PLUGIN_LOAD_FAILED"],
      ["beta", "PLUGIN_LOAD_FAILED"],
    ]);
    expect(loaded.refused[0]?.error.message).toBe(
      `plugin alpha: importing ${join(user, "alpha", "index.mjs")} did not finish within 200 ms; it was given up on and the plugin is not loaded. Fix the plugin, or stop loading it: mcpvm plugin disable alpha`,
    );
    expect(loaded.refused[1]?.error.message).toContain("plugin beta: createHostFunctions did not finish within 200 ms");
    // What a script requiring the stuck plugin's module is told.
    await expect(callHostFunction(loaded.unavailable, "alpha", "hello")).rejects.toThrow(/plugin alpha did not load: .*mcpvm plugin disable alpha/);
  }, 20_000);

  // Wave 32 took the time other code held the thread off each step's clock (load-clock.ts), so a plugin held back by
  // another's synchronous code is not the one named. A hold no step claims (its code yields instead of settling
  // right after) was taken off every clock without limit, the holder's own included: a plugin computing in chunks
  // of a few hundred milliseconds with a yield between them was never given up on.
  it("a plugin that holds the thread in chunks with yields between them is still given up on", async () => {
    const chunks = `(async () => {
      for (let i = 0; i < 8; i++) {
        const end = Date.now() + 350;
        while (Date.now() < end) {}
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return { chunky: { hello: () => "hello from chunky" } };
    })()`;
    await writeFiles(join(world.paths.userPluginsDir, "chunky"), simpleUserPlugin("chunky", chunks));
    const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, loadTimeoutMs: 400 });
    await plugins.approve("chunky");
    await plugins.enable("chunky");
    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual([]);
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([["chunky", "PLUGIN_LOAD_FAILED"]]);
    expect(loaded.refused[0]?.error.message).toContain("plugin chunky: createHostFunctions did not finish within 400 ms");
    await plugins.dispose();
  }, 20_000);

  it("side by side, results still count in discovery order: the first plugin keeps a module both provide, even when it loads last", async () => {
    const user = world.paths.userPluginsDir;
    const shared = (name: string): Record<string, string> => {
      const files = simpleUserPlugin(name, `{ shared: { hello: () => "hello from ${name}" } }`);
      const manifest = manifestText(name, { hostModules: [{ name: "shared", description: "Both provide it.", functions: { hello: "Says hello." } }] });
      return { ...files, "plugin.json": manifest, "index.mjs": (files["index.mjs"] ?? "").replace(`declaredModules: [${JSON.stringify(name)}]`, 'declaredModules: ["shared"]') };
    };
    const slow = shared("aa-slow");
    // Its import finishes after bb-fast has loaded whole.
    await writeFiles(join(user, "aa-slow"), { ...slow, "index.mjs": `await new Promise((resolve) => setTimeout(resolve, 300));\n${slow["index.mjs"]}` });
    await writeFiles(join(user, "bb-fast"), shared("bb-fast"));
    const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false });
    for (const name of ["aa-slow", "bb-fast"]) {
      await plugins.approve(name);
      await plugins.enable(name);
    }
    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual(["aa-slow"]);
    expect(await callHostFunction(loaded.modules, "shared", "hello")).toBe("hello from aa-slow");
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code, refusal.error.message])).toEqual([
      ["bb-fast", "PLUGIN_MODULE_CONFLICT", 'plugin bb-fast: module "shared" is already provided by plugin aa-slow; disable one of them'],
    ]);
    await plugins.dispose();
  }, 20_000);
});
