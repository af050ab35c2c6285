import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadManifest, manifestDeclaresModule, parseManifestText, PluginError } from "../../src/plugin-system/index.js";
import { manifestText } from "./helpers.js";

function errorOf(fn: () => unknown): PluginError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PluginError) return error;
    throw error;
  }
  throw new Error("expected a PluginError");
}

describe("plugin.json", () => {
  it("parses a full manifest and fills defaults for optional lists", () => {
    const manifest = parseManifestText("plugin.json", JSON.stringify({ name: "fs-read", version: "1.0.0", description: "Reads files.", entry: "index.ts" }));
    expect(manifest).toEqual({
      name: "fs-read",
      version: "1.0.0",
      description: "Reads files.",
      entry: "index.ts",
      hostModules: [],
      modulePrefixes: [],
      capabilities: [],
      configSchema: { type: "object" },
      hints: [],
    });
  });

  it("names the file, the JSON path and the rule for each problem", () => {
    const text = manifestText("Bad_Name", {
      entry: "../index.ts",
      capabilities: ["fs.read", "shell"],
      hostModules: [{ name: "ok", description: "x", functions: { "not an identifier": "y" } }],
    });
    const error = errorOf(() => parseManifestText("/p/plugin.json", text));
    expect(error.code).toBe("PLUGIN_MANIFEST_INVALID");
    expect(error.message).toContain("/p/plugin.json is not valid:");
    expect(error.message).toContain("  - name: must match /^[a-z][a-z0-9-]*$/");
    expect(error.message).toContain("  - entry: must stay inside the plugin folder (no '..')");
    expect(error.message).toContain("  - capabilities[1]: ");
    expect(error.message).toContain('  - hostModules[0].functions["not an identifier"]: must be a JavaScript identifier');
    expect(error.data?.issues).toContainEqual({ path: "name", message: expect.stringContaining("must match") });
  });

  it("rejects unknown fields rather than ignoring them", () => {
    const error = errorOf(() => parseManifestText("plugin.json", manifestText("x", { permissions: ["all"] })));
    expect(error.code).toBe("PLUGIN_MANIFEST_INVALID");
    expect(error.message).toContain("permissions");
  });

  it("reserves the mcp prefix for modules unless the plugin declares it in modulePrefixes", () => {
    const modules = [{ name: "mcp-github", description: "x", functions: {} }];
    const error = errorOf(() => parseManifestText("plugin.json", manifestText("x", { hostModules: modules })));
    expect(error.message).toContain('hostModules[0].name: starts with the reserved prefix "mcp"');
    const allowed = parseManifestText("plugin.json", manifestText("mcp", { hostModules: [], modulePrefixes: ["mcp-"] }));
    expect(manifestDeclaresModule(allowed, "mcp-github")).toBe(true);
    expect(manifestDeclaresModule(allowed, "github")).toBe(false);
  });

  it("refuses a module declared twice, a capability listed twice and a reserved name", () => {
    const twice = [
      { name: "a", description: "x", functions: {} },
      { name: "a", description: "y", functions: {} },
    ];
    const error = errorOf(() => parseManifestText("plugin.json", manifestText("constructor", { hostModules: twice, capabilities: ["env", "env"] })));
    expect(error.message).toContain('hostModules[1].name: module "a" is declared twice');
    expect(error.message).toContain("capabilities: lists a capability more than once");
    expect(error.message).toContain("name: is a reserved name");
  });

  it("reports invalid JSON and a missing file with their own codes", async () => {
    expect(errorOf(() => parseManifestText("/p/plugin.json", "{ nope")).code).toBe("PLUGIN_MANIFEST_INVALID_JSON");
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-manifest-"));
    try {
      await expect(loadManifest(join(dir, "plugin.json"))).rejects.toMatchObject({ code: "PLUGIN_MANIFEST_UNREADABLE" });
      await writeFile(join(dir, "plugin.json"), manifestText("ok"));
      expect((await loadManifest(join(dir, "plugin.json"))).manifest.name).toBe("ok");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
