import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfigPaths } from "../../src/config/paths.js";
import { PluginManager } from "../../src/plugin-system/index.js";

/** The plugins mcpvm ships, read through the real package root (no temp tree). */
describe("mcpvm's own plugins/", () => {
  let home: string;
  let plugins: PluginManager;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "mcpvm-native-"));
    plugins = new PluginManager({ paths: resolveConfigPaths({ MCPVM_HOME: home }), compiled: false });
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it("all have valid manifests, are marked native, and audit without blocking findings", async () => {
    const { plugins: found, errors } = await plugins.list();
    expect(errors.map((error) => error.message)).toEqual([]);
    expect(found.length).toBeGreaterThan(0);
    for (const plugin of found) {
      expect(plugin.source).toBe("native");
      const info = await plugins.info(plugin.name);
      expect(info.manifest.native, `${plugin.name}: plugin.json should say "native": true`).toBe(true);
      expect(info.audit.findings.filter((finding) => finding.blocking), plugin.name).toEqual([]);
    }
  });
});
