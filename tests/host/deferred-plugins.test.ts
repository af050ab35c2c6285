import { execFile } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { startupSteps } from "../../src/util/startup-trace.js";
import { errorOf, fixtureServer, makeHome, readStarts, ROOT, valueOf, type E2eHome } from "../e2e/helpers.js";

/**
 * A run loads no plugin until its script requires one of their modules: a script that uses none
 * imports, hashes and configures none (what a trivial `mcpvm run` paid most for after Node's start),
 * yet sees every module name and the `tools` global; the first require loads them with every check:
 * the approval's hash right before the import, so a plugin changed since approval is still held.
 * Observed by what was loaded (the user plugin's private copy, which is written to import it; the mcp
 * plugin's servers; the startup trace's "host: plugins loaded"), never by time.
 */
const GREET_MANIFEST = {
  name: "greet",
  version: "1.0.0",
  description: "Greets people by name.",
  entry: "index.js",
  hostModules: [{ name: "greet", description: "Greetings.", functions: { hello: "hello(name) → a greeting" } }],
};
const greetCode = (word: string) => `export default {
  name: "greet",
  declaredModules: ["greet"],
  createHostFunctions() {
    return { greet: { hello: (args) => \`${word}, \${String(args[0])}\` } };
  },
};
`;

let home: E2eHome;
const pluginDir = () => join(home.dir, "plugins", "greet");
const privateCopies = async () => readdir(join(home.dir, "plugin-code")).catch(() => [] as string[]);

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ alpha: fixtureServer(join(dir, "alpha.starts")), off: { ...fixtureServer(join(dir, "off.starts")), enabled: false } }), approve: ["alpha"] });
  await mkdir(pluginDir(), { recursive: true });
  await writeFile(join(pluginDir(), "plugin.json"), JSON.stringify(GREET_MANIFEST));
  await writeFile(join(pluginDir(), "index.js"), greetCode("hello"));
  const host = await home.open();
  try {
    await host.plugins.approve("greet", { by: "test" });
    await host.plugins.enable("greet");
  } finally {
    await host.close();
  }
});
afterAll(async () => home?.cleanup());

async function withHost(test: (host: McpvmHost) => Promise<void>): Promise<void> {
  const host = await home.open();
  try {
    await test(host);
  } finally {
    await host.close();
  }
}

describe("plugins load on the first require of one of their modules", () => {
  it("a run that requires none loads none, and still lists every module and the tools global", async () => {
    await withHost(async (host) => {
      const result = await host.run(`return { modules: __mcpvm.modules, tools: Object.keys(tools) };`);
      expect(valueOf(result)).toEqual({ modules: ["mcp-alpha", "greet"], tools: ["alpha", "off"] });
      // The check can fail: each of these is what loading the plugins does.
      expect(await privateCopies()).toEqual([]);
      expect(host.mcpServers()).toBeUndefined();
      // A disabled server and a plugin that is off say why at once, still without loading anything.
      expect(errorOf(await host.run(`require("host:mcp-off")`)).errorCode).toBe("MCP_SERVER_DISABLED");
      const off = errorOf(await host.run(`require("host:fs-read")`));
      expect([off.errorCode, off.message]).toEqual(["PLUGIN_NOT_ENABLED", expect.stringContaining("host:fs-read: plugin fs-read is not enabled")]);
      expect(await privateCopies()).toEqual([]);
      expect(host.mcpServers()).toBeUndefined();
    });
  });

  it("the first require loads them with their checks; the MCP server starts only when its module is required", async () => {
    await withHost(async (host) => {
      expect(valueOf(await host.run(`return require("host:greet").hello("Ada")`))).toBe("hello, Ada");
      expect(await privateCopies()).toHaveLength(1);
      expect(host.mcpServers()?.serverNames()).toEqual(["alpha", "off"]);
      expect(readStarts(home.startsFile("alpha"))).toEqual([]);
      expect(valueOf(await host.run(`return typeof require("host:mcp-alpha").echo`))).toBe("function");
      expect(readStarts(home.startsFile("alpha"))).toHaveLength(1);
    });
  });

  it("a plugin changed since its approval is still held: a run that uses it fails with PLUGIN_APPROVAL_STALE, the new code never runs", async () => {
    await writeFile(join(pluginDir(), "index.js"), greetCode("changed"));
    try {
      await withHost(async (host) => {
        expect(valueOf(await host.run("return 1"))).toBe(1);
        const held = errorOf(await host.run(`return require("host:greet").hello("Ada")`));
        expect(held.errorCode).toBe("PLUGIN_APPROVAL_STALE");
        expect(held.message).toContain("host:greet: plugin greet did not load: plugin greet changed since it was approved");
        // The other plugins load meanwhile.
        expect(valueOf(await host.run(`return typeof require("host:mcp-alpha").echo`))).toBe("function");
      });
    } finally {
      await writeFile(join(pluginDir(), "index.js"), greetCode("hello"));
    }
  });
});

describe("`mcpvm run` as a process", () => {
  const run = (code: string) =>
    promisify(execFile)(process.execPath, [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/e2e/fixtures/cli-entry.ts"), "--", "run", "-e", code], {
      cwd: ROOT,
      env: { ...process.env, ...home.env, MCPVM_TRACE_STARTUP: "1" },
      timeout: 60_000,
    });
  const steps = (stderr: string) => startupSteps(stderr).map(({ step }) => step);

  it("loads the plugins only when the script requires one of their modules", async () => {
    const plain = await run("return 1");
    expect(plain.stdout).toBe("1\n");
    expect(steps(plain.stderr)).toContain("host: run done");
    expect(steps(plain.stderr)).not.toContain("host: plugins loaded");
    const using = await run(`return require("host:greet").hello("Ada")`);
    expect(using.stdout).toBe("hello, Ada\n");
    const trace = steps(using.stderr);
    // The check can fail: loading them says so, and during the run (by the require), not before it.
    expect(trace.indexOf("host: plugins loaded")).toBeGreaterThan(trace.indexOf("host: engine and plugins ready, run starts"));
  }, 120_000);
});
