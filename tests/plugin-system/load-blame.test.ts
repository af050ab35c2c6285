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

const DEADLINE_MS = 300;
/** Past the deadline, but well inside the watchdog's 1 s of grace (it would end this process). */
const BUSY_MS = 600;
const BUSY_STARTED = 'Symbol.for("mcpvm.test.busyStarted")';

/**
 * Plugins load side by side in one thread. One whose import held the thread synchronously past its
 * deadline (and then finished) loaded, while another, waiting for I/O meanwhile, had its deadline timer
 * fire first (timers run before the I/O callbacks it waited for) and was the one given up on and named.
 * Real user plugins, approved and enabled, loaded by the real manager with its watchdog; a shortened deadline.
 */
describe("a plugin that holds the thread while others load", () => {
  it("is the one given up on and named; the plugin it held back still loads", async () => {
    const user = world.paths.userPluginsDir;
    const quick = simpleUserPlugin("a-quick");
    // Waits (briefly) for the busy plugin to start, then for a file: its continuation is I/O, served after timers.
    await writeFiles(join(user, "a-quick"), {
      ...quick,
      "index.mjs": `import { readFile } from "node:fs/promises";
const waitFrom = Date.now();
while (globalThis[${BUSY_STARTED}] !== true && Date.now() - waitFrom < ${DEADLINE_MS / 2}) await new Promise((resolve) => setTimeout(resolve, 5));
await readFile(new URL(import.meta.url));
${quick["index.mjs"]}`,
    });
    const busy = simpleUserPlugin("b-busy");
    await writeFiles(join(user, "b-busy"), {
      ...busy,
      "index.mjs": `globalThis[${BUSY_STARTED}] = true;
const until = Date.now() + ${BUSY_MS};
while (Date.now() < until) {}
${busy["index.mjs"]}`,
    });
    const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, loadTimeoutMs: DEADLINE_MS });
    for (const name of ["a-quick", "b-busy"]) {
      await plugins.approve(name);
      await plugins.enable(name);
    }
    const loaded = await plugins.loadHostModules();
    // Before: loaded ["b-busy"], and a-quick refused: "importing … did not finish within 300 ms".
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([["b-busy", "PLUGIN_LOAD_FAILED"]]);
    expect(loaded.refused[0]?.error.message).toMatch(
      new RegExp(`^plugin b-busy: importing \\S+index\\.mjs kept mcpvm's thread busy for \\d+ ms \\(a synchronous loop or long computation\\), past its 300 ms deadline; it was given up on and the plugin is not loaded\\. Fix the plugin, or stop loading it: mcpvm plugin disable b-busy$`),
    );
    expect(loaded.loaded).toEqual(["a-quick"]);
    expect(await callHostFunction(loaded.modules, "a-quick", "hello")).toBe("hello from a-quick");
    await plugins.dispose();
  }, 30_000);
});
