import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfigFile } from "../../src/config/config-file.js";

/**
 * `mcpvm run` reads config.json several times in one process (engine choice, host, plugin manager):
 * each read sees the file as it is now, while the same text is validated only once.
 */

let home: string;
let file: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-config-reads-"));
  file = join(home, "config.json");
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("loadConfigFile, read again in one process", () => {
  it("sees a change another writer made between two reads, even one of the same size", async () => {
    await writeFile(file, JSON.stringify({ engine: "quickjs" }));
    expect(await loadConfigFile(file)).toEqual({ engine: "quickjs" });
    // The same number of bytes as before.
    await writeFile(file, `${JSON.stringify({ engine: "auto" })}   `);
    expect(await loadConfigFile(file)).toEqual({ engine: "auto" });
    await writeFile(file, JSON.stringify({ engine: "quickjs-inline" }));
    expect(await loadConfigFile(file)).toEqual({ engine: "quickjs-inline" });
  });

  it("still refuses the file when it turns invalid after a valid read", async () => {
    await writeFile(file, JSON.stringify({ engine: "quickjs" }));
    await loadConfigFile(file);
    await writeFile(file, JSON.stringify({ engine: "v8" }));
    await expect(loadConfigFile(file)).rejects.toBeInstanceOf(ConfigError);
    await rm(file);
    expect(await loadConfigFile(file)).toEqual({});
  });

  it("gives each caller its own copy: changing one read does not change the next", async () => {
    await writeFile(file, JSON.stringify({ engine: "quickjs", plugins: { mcp: { enabled: true } } }));
    const first = await loadConfigFile(file);
    (first.plugins as Record<string, { enabled?: boolean }>).mcp = { enabled: false };
    first.engine = "auto";
    expect(await loadConfigFile(file)).toEqual({ engine: "quickjs", plugins: { mcp: { enabled: true } } });
  });
});
