import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginManager } from "../../src/plugin-system/manager.js";
import type { HostModule } from "../../src/sandbox/types.js";
import { makeWorld, manifestText, writeFiles, type TempWorld } from "./helpers.js";

let world: TempWorld;
const children: number[] = [];

beforeEach(async () => {
  world = await makeWorld();
});

afterEach(async () => {
  // A child a plugin left running (what these tests look for) must not outlive the test either.
  for (const pid of children.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  await world.cleanup();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A user plugin that is late by `step`: its import (top-level await) or its createHostFunctions waits
 * 800 ms, longer than the 200 ms deadline the manager is given, then starts a real child process and
 * writes its pid. Its dispose kills that child and logs one line per call (or throws, with `failingDispose`).
 */
function latePlugin(step: "import" | "createHostFunctions", dir: string, failingDispose = false): Record<string, string> {
  const pidFile = JSON.stringify(join(dir, "child.pid"));
  const disposedFile = JSON.stringify(join(dir, "disposed.log"));
  const start = `await new Promise((resolve) => setTimeout(resolve, 800));
  child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  writeFileSync(${pidFile}, String(child.pid));`;
  return {
    "plugin.json": manifestText("late"),
    "index.mjs": `import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
let child;
${step === "import" ? start : ""}
export default {
  name: "late",
  declaredModules: ["late"],
  configSchema: { safeParse: (value) => ({ success: true, data: value }) },
  async createHostFunctions() {
    ${step === "createHostFunctions" ? start : ""}
    return { late: { hello: () => "hello" } };
  },
  async dispose() {
    appendFileSync(${disposedFile}, "disposed\\n");
    child?.kill("SIGKILL");
    ${failingDispose ? 'throw new Error("the socket was already closed");' : ""}
  },
};
`,
  };
}

async function loadLate(step: "import" | "createHostFunctions", failingDispose = false) {
  await writeFiles(join(world.paths.userPluginsDir, "late"), latePlugin(step, world.root, failingDispose));
  const warnings: string[] = [];
  const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, loadTimeoutMs: 200, warn: (message) => warnings.push(message) });
  await plugins.approve("late");
  await plugins.enable("late");
  const loaded = await plugins.loadHostModules();
  expect(loaded.refused.map((r) => [r.plugin, r.error.code])).toEqual([["late", "PLUGIN_LOAD_FAILED"]]);
  const pidFile = join(world.root, "child.pid");
  await expect.poll(() => existsSync(pidFile), { timeout: 15_000, interval: 50 }).toBe(true);
  const pid = Number(readFileSync(pidFile, "utf8"));
  children.push(pid);
  return { plugins, pid, warnings, disposals: () => (existsSync(join(world.root, "disposed.log")) ? readFileSync(join(world.root, "disposed.log"), "utf8").split("\n").filter(Boolean).length : 0) };
}

// A plugin given up on at its deadline was abandoned: its createHostFunctions kept running, and what it
// started once it finally returned (here a child process) outlived the host. It is now disposed when it settles.
describe("a plugin given up on at load that settles later", () => {
  for (const step of ["createHostFunctions", "import"] as const) {
    it(`(late ${step}) is disposed once it settles, so the child process it started does not outlive it`, async () => {
      const { plugins, pid, disposals } = await loadLate(step);
      await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
      expect(disposals()).toBe(1);
      // The host closing does not dispose it a second time: it was never one of the loaded plugins.
      await plugins.dispose();
      expect(disposals()).toBe(1);
    }, 30_000);
  }

  it("a late dispose that throws is told through warn, not thrown", async () => {
    const { plugins, pid, warnings } = await loadLate("createHostFunctions", true);
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
    await expect.poll(() => warnings, { timeout: 15_000, interval: 50 }).toEqual(["plugin late: disposing it after its late load failed: the socket was already closed"]);
    await plugins.dispose();
  }, 30_000);
});

// The registration is the module's default export, so a reload (the REPL after /plugin or /mcp, a second
// loadHostModules) gets the same object again. A late dispose of the first, given-up load used to run
// while the reload's load was live, and tore down what that load was using (here its shared child process).
describe("a plugin given up on at load, loaded again before the first load settles", () => {
  it("is not disposed under the live load: its late dispose waits for that load's own", async () => {
    const pidFile = JSON.stringify(join(world.root, "child.pid"));
    await writeFiles(join(world.paths.userPluginsDir, "late"), {
      "plugin.json": manifestText("late"),
      "index.mjs": `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
let first = true;
let child;
export default {
  name: "late",
  declaredModules: ["late"],
  configSchema: { safeParse: (value) => ({ success: true, data: value }) },
  async createHostFunctions() {
    if (first) {
      first = false;
      await new Promise((resolve) => setTimeout(resolve, 800));
    }
    if (child === undefined) {
      child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      writeFileSync(${pidFile}, String(child.pid));
    }
    return { late: { hello: () => "hello" } };
  },
  async dispose() {
    child?.kill("SIGKILL");
    child = undefined;
  },
};
`,
    });
    const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, loadTimeoutMs: 200 });
    await plugins.approve("late");
    await plugins.enable("late");
    expect((await plugins.loadHostModules()).refused.map((r) => r.error.code)).toEqual(["PLUGIN_LOAD_FAILED"]);
    // Reloaded while the first createHostFunctions still waits: this load is quick and live.
    const second = await plugins.loadHostModules();
    expect(second.refused.map((r) => r.error.message)).toEqual([]);
    const pid = Number(readFileSync(join(world.root, "child.pid"), "utf8"));
    children.push(pid);
    // The first load settles (800 ms) well within this wait.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(alive(pid)).toBe(true);
    // Its own dispose (the host closing) still ends what both loads shared.
    await plugins.dispose();
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
  }, 30_000);
});

// The same reload, but the first load settles while the reload is still inside its own createHostFunctions: that
// load was not yet in use (it counted from its success on), so the first load's late dispose ran and tore down what
// the reload had just started. A load now counts from its import on. No timing: the reload itself lets the first
// load settle, then gives the late dispose (a chain of promise reactions) the rest of the turn before it returns.
describe("a plugin given up on at load whose reload is still being created when the first load settles", () => {
  it("is not disposed under the reload: the late dispose leaves what that load made alone", async () => {
    const pidFile = JSON.stringify(join(world.root, "child.pid"));
    const disposedFile = JSON.stringify(join(world.root, "disposed.log"));
    await writeFiles(join(world.paths.userPluginsDir, "late"), {
      "plugin.json": manifestText("late"),
      "index.mjs": `import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
let calls = 0;
let releaseFirst;
let child;
export default {
  name: "late",
  declaredModules: ["late"],
  configSchema: { safeParse: (value) => ({ success: true, data: value }) },
  async createHostFunctions() {
    calls++;
    if (calls === 1) {
      // Given up on at its deadline; it returns only once the reload lets it.
      await new Promise((resolve) => (releaseFirst = resolve));
      return { late: { hello: () => "hello" } };
    }
    child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    writeFileSync(${pidFile}, String(child.pid));
    releaseFirst();
    // The first load settles and its late step runs in promise reactions, all before this next turn.
    await new Promise((resolve) => setImmediate(resolve));
    return { late: { hello: () => (child === undefined ? "its child was killed" : "hello") } };
  },
  async dispose() {
    appendFileSync(${disposedFile}, "disposed\\n");
    child?.kill("SIGKILL");
    child = undefined;
  },
};
`,
    });
    const plugins = new PluginManager({ paths: world.paths, packageRoot: world.packageRoot, compiled: false, loadTimeoutMs: 200 });
    await plugins.approve("late");
    await plugins.enable("late");
    expect((await plugins.loadHostModules()).refused.map((r) => r.error.code)).toEqual(["PLUGIN_LOAD_FAILED"]);
    const second = await plugins.loadHostModules();
    expect(second.refused.map((r) => r.error.message)).toEqual([]);
    const pid = Number(readFileSync(join(world.root, "child.pid"), "utf8"));
    children.push(pid);
    expect(existsSync(join(world.root, "disposed.log"))).toBe(false);
    // What the reload made still works: its functions see their child.
    const late = second.modules.late as HostModule;
    expect(await late.hello?.([], { module: "late", fn: "hello", signal: new AbortController().signal, deadline: Date.now() + 10_000 })).toBe("hello");
    // Its own dispose (the host closing) ends what both loads made.
    await plugins.dispose();
    expect(readFileSync(join(world.root, "disposed.log"), "utf8")).toBe("disposed\n");
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
  }, 30_000);
});
