import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { childPids, errorOf, fixtureServer, isAlive, makeHome, readStarts, valueOf, waitFor, type E2eHome } from "./helpers.js";

/**
 * Server faults through the whole stack, with our fixture server: each ends in a clear guest error
 * within its budget, and a healthy server keeps serving in the same run and in the next one.
 */

let home: E2eHome;
let host: McpvmHost;
const starts = (name: string) => readStarts(join(home.dir, `${name}.starts`));
const baseline = childPids().length;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => {
      const fixture = (name: string, args: string, extra: Record<string, unknown> = {}) => fixtureServer(join(dir, `${name}.starts`), args, extra);
      return {
        healthy: fixture("healthy", ""),
        crashy: fixture("crashy", "--crash-after 2"),
        stuck: fixture("stuck", "--mode hang-call", { callTimeoutMs: 400 }),
        "stuck-forever": fixture("stuck-forever", "--mode hang-call"),
        mute: fixture("mute", "--mode hang-initialize", { connectTimeoutMs: 600 }),
        noisy: fixture("noisy", "--mode garbage-start"),
        babbler: fixture("babbler", "--mode garbage-only", { connectTimeoutMs: 600 }),
        quitter: fixture("quitter", "--mode exit-at-start --exit-code 7"),
        big: fixture("big", "", { maxResponseBytes: 1000 }),
      };
    },
    mcp: { maxReconnects: 1 },
  });
  host = await home.open();
});

afterAll(async () => {
  await host?.close();
  await home?.cleanup();
  expect(childPids()).toHaveLength(baseline);
});

/** Guest code that runs `faulty`, catches what it throws, then calls the healthy server. */
function thenHealthy(faulty: string): string {
  return `
    let caught;
    try { ${faulty}; caught = "no error"; }
    catch (error) { caught = { name: error.name, code: error.code, message: error.message }; }
    return { caught, healthy: require("host:mcp-healthy").echo({ text: "still here" }) };
  `;
}

interface Caught {
  caught: { name: string; code: string; message: string };
  healthy: string;
}

async function expectHealthyNextRun(): Promise<void> {
  expect(valueOf(await host.run(`return tools.healthy.echo({ text: "next run" });`))).toBe("next run");
}

describe("a server that crashes", () => {
  it("never receives calls whose arguments are invalid, then crashes on call N+1 with a transport error", async () => {
    const result = await host.run(`
      const crashy = require("host:mcp-crashy");
      const out = [];
      for (const args of [{ text: 1 }, {}, { text: ["a"] }, { text: "one" }, { text: "two" }, { text: "three" }]) {
        try { out.push(crashy.echo(args)); } catch (error) { out.push(error.name + " " + error.code); }
      }
      return out;
    `);
    // Had the three invalid calls been sent, the server would have crashed on "one" (call 3).
    expect(valueOf(result)).toEqual([
      "McpInvalidArgumentsError MCP_INVALID_ARGUMENTS",
      "McpInvalidArgumentsError MCP_INVALID_ARGUMENTS",
      "McpInvalidArgumentsError MCP_INVALID_ARGUMENTS",
      "one",
      "two",
      "McpTransportError MCP_TRANSPORT_CLOSED",
    ]);
    expect(starts("crashy")).toHaveLength(1);
    await waitFor(() => !isAlive(starts("crashy")[0] as number), "the crashed server to be gone");
  });

  it("is restarted on the next call, up to the reconnect limit, and then refused with a clear error", async () => {
    const result = await host.run(`
      const crashy = require("host:mcp-crashy");
      const out = [];
      for (const text of ["a", "b", "c", "d"]) {
        try { out.push(crashy.echo({ text })); } catch (error) { out.push(error.name + " " + error.code + " " + error.message); }
      }
      out.push(require("host:mcp-healthy").echo({ text: "healthy" }));
      return out;
    `);
    const out = valueOf(result) as string[];
    expect(out.slice(0, 2)).toEqual(["a", "b"]);
    expect(out[2]).toMatch(/^McpTransportError MCP_TRANSPORT_CLOSED .*crashy/);
    expect(out[3]).toMatch(/^McpServerUnavailable MCP_RECONNECT_LIMIT MCP server crashy failed 2 times/);
    expect(out[4]).toBe("healthy");
    expect(starts("crashy")).toHaveLength(2);
    await expectHealthyNextRun();
  });
});

describe("a server that hangs", () => {
  it("ends a hung call with McpTimeoutError after the server's callTimeoutMs", async () => {
    valueOf(await host.run(`require("host:mcp-stuck"); return 1;`)); // started and listed, outside the measured run
    // A wall budget far above the server's 400 ms: a call timeout taken from the budget would end the call
    // only after ~10 s, so an end within a few seconds can only be the server's own callTimeoutMs.
    const started = Date.now();
    const result = await host.run(thenHealthy(`require("host:mcp-stuck").echo({ text: "hello?" })`), { limits: { wallMs: 10_000 } });
    const { caught, healthy } = valueOf(result) as Caught;
    expect(caught).toMatchObject({ name: "McpTimeoutError", code: "MCP_CALL_TIMEOUT" });
    expect(caught.message).toContain("stuck.echo");
    expect(caught.message).toContain("within 400 ms");
    expect(healthy).toBe("still here");
    expect(Date.now() - started).toBeLessThan(5_000);
    await expectHealthyNextRun();
  });

  it("ends a hung call with McpTimeoutError naming it, inside the run's wall budget, when the server sets no call timeout", async () => {
    valueOf(await host.run(`require("host:mcp-stuck-forever"); return 1;`)); // started and listed, outside the measured run
    const wallMs = 1_500;
    const started = Date.now();
    const result = await host.run(`return require("host:mcp-stuck-forever").echo({ text: "hello?" });`, { limits: { wallMs } });
    const elapsed = Date.now() - started;
    // The call's timeout is the time left in the run's budget, less a small reserve: the guest gets
    // the McpTimeoutError (uncaught here) rather than an anonymous WALL_LIMIT.
    const error = errorOf(result);
    expect(error).toMatchObject({ name: "McpTimeoutError", errorCode: "MCP_CALL_TIMEOUT" });
    expect(error.message).toMatch(/^MCP tool stuck-forever\.echo did not answer within \d+ ms; the request was cancelled\. That was what was left of the caller's time budget: give the run more \(mcpvm run --timeout 2m\)\.$/);
    expect(elapsed).toBeLessThan(wallMs + 1_500);
    await expectHealthyNextRun();
  });

  it("gives up on a server that never answers initialize after connectTimeoutMs and kills it", async () => {
    const started = Date.now();
    const result = await host.run(thenHealthy(`require("host:mcp-mute")`), { limits: { wallMs: 5_000 } });
    const { caught, healthy } = valueOf(result) as Caught;
    expect(caught).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_TIMEOUT" });
    expect(caught.message).toContain("mute");
    expect(healthy).toBe("still here");
    expect(Date.now() - started).toBeLessThan(4_000);
    const [pid] = starts("mute");
    await waitFor(() => !isAlive(pid as number), "the hung server to be killed");
    await expectHealthyNextRun();
  });
});

describe("a server that writes garbage on stdout", () => {
  it("still works when the garbage comes before valid JSON-RPC", async () => {
    const result = await host.run(`return require("host:mcp-noisy").echo({ text: "through the noise" });`);
    expect(valueOf(result)).toBe("through the noise");
  });

  it("fails to connect with a clear error when it never speaks JSON-RPC", async () => {
    const started = Date.now();
    const result = await host.run(thenHealthy(`require("host:mcp-babbler")`), { limits: { wallMs: 5_000 } });
    const { caught, healthy } = valueOf(result) as Caught;
    expect(caught.name).toBe("McpConnectError");
    expect(caught.code).toMatch(/^MCP_CONNECT_(TIMEOUT|FAILED)$/);
    expect(caught.message).toContain("babbler");
    expect(healthy).toBe("still here");
    expect(Date.now() - started).toBeLessThan(4_000);
    await expectHealthyNextRun();
  });
});

describe("a server that exits at start", () => {
  it("fails the require with McpConnectError naming the server and its exit", async () => {
    const result = await host.run(thenHealthy(`require("host:mcp-quitter")`));
    const { caught, healthy } = valueOf(result) as Caught;
    expect(caught).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_FAILED" });
    expect(caught.message).toContain("quitter");
    expect(caught.message).toContain("7");
    expect(healthy).toBe("still here");
    await expectHealthyNextRun();
  });
});

describe("a server that answers too much", () => {
  it("truncates a response over maxResponseBytes with an explicit marker", async () => {
    const result = await host.run(`
      const big = require("host:mcp-big");
      return { small: big.huge({ bytes: 10 }), large: big.huge({ bytes: 50000 }) };
    `);
    const { small, large } = valueOf(result) as { small: string; large: { truncated: boolean; limitBytes: number; totalBytes: number; value: string } };
    expect(small).toBe("x".repeat(10));
    expect(large).toMatchObject({ truncated: true, limitBytes: 1000, totalBytes: 50_000 });
    expect(large.value).toBe("x".repeat(1000));
    await expectHealthyNextRun();
  });
});
