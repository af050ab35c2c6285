import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverPlugins, type DiscoveryOptions } from "../../src/plugin-system/index.js";
import { enabledIn, planHostModules } from "../../src/plugin-system/plan.js";
import { moduleUnavailability } from "../../src/sandbox/types.js";
import { installEcho, makeWorld, manifestText, simpleUserPlugin, writeFiles, type TempWorld } from "./helpers.js";

/**
 * A run's plan (src/plugin-system/plan.ts) inspects only the plugins config.json enables; the others
 * are read for their module names alone, so their "not enabled" message still names the fix, and a
 * plugin.json discovery would refuse lists no module, as discovery lists none.
 */
let world: TempWorld;
let options: DiscoveryOptions;

beforeEach(async () => {
  world = await makeWorld();
  options = { packageRoot: world.packageRoot, userPluginsDir: world.paths.userPluginsDir, compiled: false };
});
afterEach(() => world.cleanup());

const codes = (modules: Readonly<Record<string, Parameters<typeof moduleUnavailability>[0]>>) =>
  Object.fromEntries(Object.entries(modules).map(([name, module]) => [name, moduleUnavailability(module)?.code]));

describe("a run's plugin plan", () => {
  it("inspects the enabled plugins only; the others say how to enable them; broken or reserved manifests list nothing", async () => {
    await installEcho(world);
    await writeFiles(join(world.paths.userPluginsDir, "weather"), simpleUserPlugin("weather"));
    await writeFiles(join(world.paths.userPluginsDir, "broken"), { "plugin.json": "{ not json" });
    await writeFiles(join(world.paths.userPluginsDir, "named"), { "plugin.json": manifestText("other") });
    await writeFiles(join(world.paths.userPluginsDir, "sneaky"), { "plugin.json": manifestText("sneaky", { modulePrefixes: ["mcp-"] }) });
    await writeFiles(join(world.paths.userPluginsDir, "echo"), simpleUserPlugin("echo"));
    const config = { plugins: { weather: { enabled: true }, typo: { enabled: true } } };
    const discovered = await discoverPlugins({ ...options, only: enabledIn(config) });
    expect(discovered.plugins.map((plugin) => plugin.name)).toEqual(["weather"]);
    expect(discovered.skipped?.map((folder) => folder.folder)).toEqual(["echo", "broken", "named", "sneaky"]);
    const plan = await planHostModules(discovered, config, "config.json");
    expect(plan.enabled.map((plugin) => plugin.name)).toEqual(["weather"]);
    expect(codes(plan.unavailable)).toEqual({ echo: "PLUGIN_NOT_ENABLED" });
    expect(moduleUnavailability(plan.unavailable.echo!)?.message).toContain("mcpvm plugin approve echo && mcpvm plugin enable echo");
    expect(plan.refused.map(({ plugin, error }) => [plugin, error.code])).toEqual([["typo", "PLUGIN_NOT_FOUND"]]);
  });

  it("lists what full discovery lists for plugins that are off (the check can fail: it compares with discoverPlugins)", async () => {
    await installEcho(world);
    await writeFiles(join(world.paths.userPluginsDir, "weather"), simpleUserPlugin("weather"));
    const light = await planHostModules(await discoverPlugins({ ...options, only: enabledIn({}) }), {}, "config.json");
    const full = await planHostModules(await discoverPlugins(options), {}, "config.json");
    expect(codes(light.unavailable)).toEqual(codes(full.unavailable));
    expect(Object.keys(light.unavailable)).toEqual(["echo", "weather"]);
  });
});
