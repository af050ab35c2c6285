import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, PluginHomes, pluginEnv as env, registration, userPlugin as plugin } from "./plugin-home.js";

/**
 * An approved user plugin whose entry or createHostFunctions loops synchronously used to hang every face for
 * good, deaf to SIGTERM (the signal handlers are JavaScript too): only SIGKILL ended it. Real `node
 * bin/mcpvm.js` processes (dist must be built) in a temporary home, with real approved and enabled plugins;
 * each waits out the real 10 s load deadline, so they run side by side.
 */

// "looping" on stderr tells the test the plugin now holds the thread.
const LOOP = 'console.error("looping"); for (;;) {}';
const FINE = plugin("fine", registration("fine", 'return { fine: { hello: () => "hello from fine" } };'));
/** Loops while its entry is imported. */
const SPIN_IMPORT = plugin("spin-import", `${LOOP}\n${registration("spin-import", 'return { "spin-import": { hello: () => "never" } };')}`);
/** Loops in createHostFunctions. */
const SPIN_CREATE = plugin("spin-create", registration("spin-create", LOOP));

/** Its import never finishes (a top-level await of a promise that never settles). */
const WAITS = plugin("a-waits", `await new Promise(() => {});\n${registration("a-waits", 'return { "a-waits": { hello: () => "never" } };')}`);

const homes = new PluginHomes();
const homeWith = (plugins: readonly Record<string, string>[]): Promise<string> => homes.with("plugin-holds-thread", plugins);

interface Ended {
  readonly code: number | null;
  readonly stderr: string;
}

/** `mcpvm run -e <script>`; with `terminate`, SIGTERM is sent once the plugin says it loops (and a little after, so it holds the thread). */
function run(home: string, script: string, terminate = false): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "run", "-e", script], { env: env(home), stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (terminate && stderr.includes("looping\n")) {
        terminate = false;
        setTimeout(() => child.kill("SIGTERM"), 1_000);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

afterAll(() => homes.cleanup());

describe("a user plugin that holds mcpvm's thread while it loads", () => {
  it.concurrent("looping at import: the process ends with exit 3, naming the plugin, the step and how to disable it", async () => {
    const home = await homeWith([FINE, SPIN_IMPORT]);
    const ended = await run(home, 'return require("host:fine").hello()');
    expect(ended.code).toBe(3);
    expect(ended.stderr).toMatch(/^looping\nmcpvm: plugin spin-import: importing \S*index\.mjs kept mcpvm's thread busy for over 10 s \(a synchronous loop or long computation\) and was stopped; mcpvm exits \(code 3, PLUGIN_LOAD_FAILED\)\. Fix the plugin, or stop loading it: mcpvm plugin disable spin-import\n/);
  }, 90_000);

  it.concurrent("looping in createHostFunctions: the same, naming that step", async () => {
    const home = await homeWith([FINE, SPIN_CREATE]);
    const ended = await run(home, 'return require("host:fine").hello()');
    expect(ended.code).toBe(3);
    expect(ended.stderr).toContain("mcpvm: plugin spin-create: createHostFunctions kept mcpvm's thread busy for over 10 s");
    expect(ended.stderr).toContain("mcpvm plugin disable spin-create");
  }, 90_000);

  // Plugins load side by side: here a-waits' import is in flight too when spin-create loops, and the
  // watchdog tells the two apart by the held stack (the file of spin-create's private copy on it).
  it.concurrent("looping while another plugin's load is in flight: the looping one is named, not the other", async () => {
    const home = await homeWith([WAITS, SPIN_CREATE]);
    const ended = await run(home, 'return require("host:spin-create").hello()');
    expect(ended.code).toBe(3);
    expect(ended.stderr).toContain("mcpvm: plugin spin-create: createHostFunctions kept mcpvm's thread busy for over 10 s");
    expect(ended.stderr).toContain("mcpvm plugin disable spin-create\n");
    expect(ended.stderr).not.toContain("a-waits");
  }, 90_000);

  it.concurrent("SIGTERM while it holds the thread ends the process, saying so", async () => {
    const home = await homeWith([SPIN_CREATE]);
    const ended = await run(home, 'return require("host:spin-create").hello()', true);
    expect(ended.code).toBe(143);
    expect(ended.stderr).toContain("mcpvm: SIGTERM came while plugin spin-create: createHostFunctions was holding mcpvm's thread; it was stopped and mcpvm exits. If it does so again, stop loading it: mcpvm plugin disable spin-create");
  }, 90_000);
});
