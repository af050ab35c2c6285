import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginManager } from "../../src/plugin-system/manager.js";
import { callHostFunction, makeWorld, simpleUserPlugin, writeFiles, type TempWorld } from "./helpers.js";

let world: TempWorld;

beforeEach(async () => {
  world = await makeWorld();
});

afterEach(async () => {
  await world.cleanup();
});

// Plugins load one after another: a plugin whose top-level await or createHostFunctions never settled
// stalled every plugin after it, and `mcpvm run` reported only the script's WALL_LIMIT.
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
});
