import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import fetchPlugin from "../../plugins/fetch/index.js";
import fsRead from "../../plugins/fs-read/index.js";
import fsWrite from "../../plugins/fs-write/index.js";
import { parseManifestText } from "../../src/plugin-system/index.js";
import type { PluginRegistration } from "../../src/plugin-system/types.js";
import { hostModule } from "./helpers.js";

const plugins: ReadonlyArray<readonly [string, PluginRegistration<never>, Record<string, unknown>]> = [
  ["fs-read", fsRead as PluginRegistration<never>, { baseDir: tmpdir() }],
  ["fs-write", fsWrite as PluginRegistration<never>, { baseDir: tmpdir() }],
  ["fetch", fetchPlugin as PluginRegistration<never>, { allowDomains: ["example.com"] }],
];

async function load(dir: string) {
  const file = join("plugins", dir, "plugin.json");
  const manifest = parseManifestText(file, await readFile(file, "utf8"));
  const declarations = await readFile(join("plugins", dir, manifest.declarations ?? "missing.d.ts"), "utf8");
  return { manifest, declarations };
}

describe.each(plugins)("plugins/%s", (dir, plugin, config) => {
  it("has a valid native manifest whose name and modules match the registration", async () => {
    const { manifest } = await load(dir);
    expect(manifest).toMatchObject({ name: plugin.name, native: true, entry: "index.ts", version: "1.0.0" });
    expect(manifest.hostModules.map((module) => module.name)).toEqual([...plugin.declaredModules]);
  });

  it("declares in plugin.json exactly the functions the code creates", async () => {
    const { manifest } = await load(dir);
    for (const module of manifest.hostModules) {
      const created = await hostModule(plugin, module.name, config);
      expect(Object.keys(created).sort()).toEqual(Object.keys(module.functions).sort());
    }
  });

  it("states the same config schema in plugin.json as the zod schema in code", async () => {
    const { manifest } = await load(dir);
    const generated: Record<string, unknown> = { ...z.toJSONSchema(plugin.configSchema, { io: "input" }) };
    delete generated.$schema;
    expect(manifest.configSchema).toEqual(generated);
  });

  it("documents every function in module.d.ts with JSDoc", async () => {
    const { manifest, declarations } = await load(dir);
    for (const module of manifest.hostModules) {
      expect(declarations).toContain(`declare module "host:${module.name}" {`);
      for (const fn of Object.keys(module.functions)) {
        const lines = declarations.split("\n");
        const index = lines.findIndex((line) => new RegExp(`^\\s*export function ${fn}[<(]`).test(line));
        expect(index, `${fn} is declared`).toBeGreaterThan(0);
        expect(lines[index - 1]?.trim().endsWith("*/"), `${fn} has JSDoc`).toBe(true);
      }
    }
  });
});
