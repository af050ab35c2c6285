import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A plugin that cannot load is a set-up problem (its installed code or its config), not the
 * script's failure: a script that requires its module exits 3 (docs/USAGE.md), with the plugin's
 * load error, as a corrupt state file does; it exited 1, "the guest script failed".
 */
let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({ servers: {} });
  const dir = join(home.dir, "plugins", "boom");
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "plugin.json"),
    JSON.stringify({ name: "boom", version: "1.0.0", description: "Fails to start.", entry: "index.mjs", hostModules: [{ name: "boom", description: "Nothing.", functions: { hello: "Says hello." } }], capabilities: [], configSchema: { type: "object" }, hints: [] }),
  );
  await writeFile(
    join(dir, "index.mjs"),
    `export default {
  name: "boom",
  declaredModules: ["boom"],
  configSchema: { safeParse: (value) => ({ success: true, data: value }) },
  createHostFunctions() { throw new Error("the boom service is not configured"); },
};
`,
  );
  const host = await home.open();
  try {
    await host.plugins.approve("boom");
  } finally {
    await host.close();
  }
  const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { plugins: Record<string, unknown> };
  config.plugins.boom = { enabled: true };
  await writeFile(join(home.dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
});
afterAll(async () => home?.cleanup());

describe("a plugin that fails to load", () => {
  it("a script requiring its module exits 3 with the plugin's load error", async () => {
    const out = await cli(home, ["run", "-e", 'return require("host:boom").hello()']);
    expect(out.stderr).toContain("plugin boom: createHostFunctions failed: the boom service is not configured. Check its config (mcpvm plugin config boom), or stop loading it: mcpvm plugin disable boom");
    expect(out.code).toBe(3);
    const json = await cli(home, ["--json", "run", "-e", 'return require("host:boom").hello()']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { errorCode: "PLUGIN_LOAD_FAILED" } });
    expect(json.code).toBe(3);
  });

  it("a script that uses no plugin still runs (exit 0)", async () => {
    const out = await cli(home, ["run", "-e", "return 1"]);
    expect(out.stdout.trim()).toBe("1");
    expect(out.code).toBe(0);
  });
});
