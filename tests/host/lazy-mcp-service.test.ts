import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import type { McpService } from "../../src/mcp/service/index.js";
import { errorOf, fixtureServer, makeHome, readStarts, ROOT, valueOf, type E2eHome } from "../e2e/helpers.js";
import { startupSteps } from "../../src/util/startup-trace.js";

/**
 * The MCP service (client manager, audit, type generator, approvals, pins) is built the first time
 * something needs it, not when the mcp plugin loads: a run that requires no `host:mcp-*` module never
 * builds it, yet every module name, the `tools` global and a disabled server's message are there, and
 * the first require builds it with every check in place. Real fixture servers, a real config home.
 */

let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      alpha: fixtureServer(join(dir, "alpha.starts")),
      beta: fixtureServer(join(dir, "beta.starts")),
      off: { ...fixtureServer(join(dir, "off.starts")), enabled: false },
    }),
    approve: ["alpha"],
  });
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

describe("the MCP service is built on first use", () => {
  it("a run that requires no server does not build it; the module names, the tools global and the servers' list are there", async () => {
    await withHost(async (host) => {
      const result = await host.run(`return { modules: __mcpvm.modules, tools: Object.keys(tools), sum: 1 + 1 };`);
      // A disabled server has no module to list, but `tools.off` exists so that calling it says how to enable it.
      expect(valueOf(result)).toEqual({ modules: ["mcp-alpha", "mcp-beta"], tools: ["alpha", "beta", "off"], sum: 2 });
      expect(host.mcp()).toBeUndefined();
      // A disabled server's require says how to enable it, without the service.
      const disabled = await host.run(`require("host:mcp-off")`);
      expect(errorOf(disabled).errorCode).toBe("MCP_SERVER_DISABLED");
      expect(errorOf(disabled).message).toContain("mcpvm mcp enable off");
      // Such runs do not even load the plugin (tests/host/deferred-plugins.test.ts); loaded, it lists the servers, still without the service.
      expect(host.mcpServers()).toBeUndefined();
      await host.hostModules();
      expect(host.mcpServers()?.serverNames()).toEqual(["alpha", "beta", "off"]);
      expect(host.mcpServers()?.enabledServers()).toEqual(["alpha", "beta"]);
      expect(host.mcpServers()?.entry("nope")).toBeUndefined();
      expect(errorOf(await host.run(`require("host:mcp-off")`)).errorCode).toBe("MCP_SERVER_DISABLED");
      expect(host.mcp()).toBeUndefined();
    });
  });

  it("the first require builds it once, and tells who waits for it; the server starts only then", async () => {
    await withHost(async (host) => {
      const built: McpService[] = [];
      const stop = host.onMcpService((service) => built.push(service));
      expect(built).toEqual([]);
      const startsBefore = readStarts(home.startsFile("alpha")).length;
      const [first, second] = await Promise.all([
        host.run(`const m = require("host:mcp-alpha"); return Object.keys(m).includes("echo");`),
        host.run(`return Object.keys(require("host:mcp-alpha")).includes("echo");`),
      ]);
      expect([valueOf(first), valueOf(second)]).toEqual([true, true]);
      expect(built).toHaveLength(1);
      expect(host.mcp()).toBe(built[0]);
      expect(readStarts(home.startsFile("alpha")).length - startsBefore).toBe(1);
      // A listener added later is told at once; requireMcp returns the same service.
      const late: McpService[] = [];
      host.onMcpService((service) => late.push(service))();
      expect(late).toEqual(built);
      expect(await host.requireMcp()).toBe(built[0]);
      stop();
    });
  });

  it("approval before spawn still holds on the first require: an unapproved server is refused and never started", async () => {
    await withHost(async (host) => {
      const result = await host.run(`require("host:mcp-beta")`);
      expect(errorOf(result).errorCode).toBe("MCP_NOT_APPROVED");
      expect(readStarts(home.startsFile("beta"))).toEqual([]);
    });
  });

  it("a face that asks for the service gets it without a run (requireMcp, mcpIfOn)", async () => {
    await withHost(async (host) => {
      const service = await host.mcpIfOn();
      expect(service?.enabledServers()).toEqual(["alpha", "beta"]);
      expect(await host.requireMcp()).toBe(service);
    });
  });

  it("an invalid mcpServers entry still refuses the mcp plugin when it loads, with the config error", async () => {
    const broken = await makeHome({ servers: { alpha: fixtureServer(join(home.dir, "unused.starts")) } });
    try {
      const config = JSON.parse(JSON.stringify({ engine: "quickjs", plugins: { mcp: { enabled: true, config: {} } }, mcpServers: { "bad name!": { command: "x" } } }));
      await writeFile(join(broken.dir, "config.json"), JSON.stringify(config));
      const host = await broken.open();
      try {
        const loaded = await host.hostModules();
        expect(loaded.refused.map((r) => r.plugin)).toEqual(["mcp"]);
        expect(host.mcpServers()).toBeUndefined();
        await expect(host.requireMcp()).rejects.toThrow(/bad name!/);
      } finally {
        await host.close();
      }
    } finally {
      await broken.cleanup();
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

  it("loads the MCP service's code only when the script requires a server", async () => {
    const plain = await run("return 1");
    expect(plain.stdout).toBe("1\n");
    expect(steps(plain.stderr)).toContain("host: run done");
    expect(steps(plain.stderr)).not.toContain("host: MCP service loaded");
    const using = await run(`return typeof require("host:mcp-alpha").echo`);
    expect(using.stdout).toBe("function\n");
    const trace = steps(using.stderr);
    expect(trace).toContain("host: MCP service loaded");
    // Loaded during the run (by the require), not while the plugins loaded.
    expect(trace.indexOf("host: MCP service loaded")).toBeGreaterThan(trace.indexOf("host: engine and plugins ready, run starts"));
  }, 120_000);
});
