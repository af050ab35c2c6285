import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { childPids, everythingServer, fixtureServer, makeHome, readStarts, valueOf, type E2eHome } from "./helpers.js";

/**
 * Lazy start, proven by the fixture's starts files and by counting this process's children:
 * configuring and approving servers starts nothing, and only the first require of a server's
 * module starts that one server.
 */

let home: E2eHome;
let host: McpvmHost;
const starts = (name: string) => readStarts(join(home.dir, `${name}.starts`));
const baseline = childPids().length;
const liveChildren = () => childPids().length - baseline;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      alpha: fixtureServer(join(dir, "alpha.starts")),
      beta: fixtureServer(join(dir, "beta.starts")),
      gamma: fixtureServer(join(dir, "gamma.starts")),
      everything: everythingServer(),
    }),
  });
  host = await home.open();
});

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
  expect(liveChildren()).toBe(0);
});

describe("servers start on the guest's first require, and only then", () => {
  it("starts nothing when servers are configured and approved and the service is up", async () => {
    const service = await host.requireMcp();
    expect(service.enabledServers()).toEqual(["alpha", "beta", "everything", "gamma"]);
    expect((await service.summaries()).map((s) => [s.name, s.state, s.approval])).toEqual([
      ["alpha", "idle", "approved"],
      ["beta", "idle", "approved"],
      ["everything", "idle", "approved"],
      ["gamma", "idle", "approved"],
    ]);
    expect([starts("alpha"), starts("beta"), starts("gamma")]).toEqual([[], [], []]);
    expect(liveChildren()).toBe(0);
  });

  it("starts nothing for a run that never touches a server, although every module and the tools global exist", async () => {
    const result = await host.run(`return { modules: __mcpvm.modules, tools: Object.keys(tools), sum: 1 + 1 };`);
    expect(valueOf(result)).toEqual({
      modules: ["mcp-alpha", "mcp-beta", "mcp-everything", "mcp-gamma"],
      tools: ["alpha", "beta", "everything", "gamma"],
      sum: 2,
    });
    expect([starts("alpha"), starts("beta"), starts("gamma")]).toEqual([[], [], []]);
    expect(liveChildren()).toBe(0);
  });

  it("starts exactly the required server on the first require", async () => {
    const result = await host.run(`return require("host:mcp-alpha").pid({}).pid;`);
    const pid = valueOf(result);
    expect(starts("alpha")).toEqual([pid]);
    expect([starts("beta"), starts("gamma")]).toEqual([[], []]);
    expect(childPids()).toContain(pid);
    expect(liveChildren()).toBe(1);
  });

  it("keeps using the running server in later runs instead of starting another", async () => {
    const result = await host.run(`return [require("host:mcp-alpha").pid({}).pid, (await tools.alpha.pid({})).pid];`);
    const [first, second] = valueOf(result) as number[];
    expect(first).toBe(second);
    expect(starts("alpha")).toEqual([first]);
    expect(liveChildren()).toBe(1);
  });

  it("starts a server once when two runs require it at the same moment", async () => {
    const [a, b] = await Promise.all([
      host.run(`return require("host:mcp-gamma").pid({}).pid;`),
      host.run(`return (await tools.gamma.pid({})).pid;`),
    ]);
    expect(valueOf(a)).toBe(valueOf(b));
    expect(starts("gamma")).toEqual([valueOf(a)]);
    expect(starts("beta")).toEqual([]);
    expect(liveChildren()).toBe(2);
  });

  it("counts a real npm server among the processes only after its first require", async () => {
    expect(liveChildren()).toBe(2);
    valueOf(await host.run(`return require("host:mcp-everything").echo({ message: "now" });`));
    expect(liveChildren()).toBe(3);
    expect(starts("beta")).toEqual([]);
  });

  it("leaves no process behind when the host closes", async () => {
    const pids = childPids();
    expect(pids.length - baseline).toBe(3);
    await host.close();
    expect(liveChildren()).toBe(0);
    host = await home.open();
  });
});
