import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { isAlive } from "../support/processes.js";
import { TOKEN } from "./fast-lane-support.js";
import { bearerTransport } from "./serve-process.js";
import { fixtureServer, jsonOf, makeHome, type TestHome } from "./helpers.js";

/**
 * A server taken out by a config.json edit keeps its process until its calls in flight finish: that
 * process still counts under the mcp plugin's maxLiveConnections (1 here), so an edit during a slow
 * call (or a loop of edits) cannot run more upstream processes than the cap. Real gateway in this
 * process, fixture servers as real processes, a real edit of config.json.
 */
describe("a server draining after a config.json edit counts under maxLiveConnections", () => {
  let home: TestHome;
  let running: RunningGateway;
  let client: Client;
  let dir: string;
  const starts = (name: string) => join(dir, `${name}.starts`);
  const startLines = async (name: string) => (await readFile(starts(name), "utf8").catch(() => "")).split("\n").filter((line) => line !== "");

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-draining-cap-"));
    home = await makeHome({
      servers: { alpha: fixtureServer(starts("alpha")), beta: fixtureServer(starts("beta")) },
      mcp: { maxLiveConnections: 1 },
      gateway: { healthIntervalMs: 0 },
    });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    client = new Client({ name: "draining-cap", version: "1" });
    await client.connect(bearerTransport(new URL(running.url as string), TOKEN));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await running?.close();
    await home?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (script: string) => jsonOf<{ result: unknown; error?: { message: string } }>(await client.callTool({ name: "run_mcp_script", arguments: { script } }));

  it("starts the other server only once the removed one's slow call finished and its process ended", { timeout: 90_000 }, async () => {
    const alphaPid = (await run(`return (await require("host:mcp-alpha").pid()).pid;`)).result as number;
    expect(isAlive(alphaPid)).toBe(true);
    const slow = run(`return await require("host:mcp-alpha").sleep({ ms: 4000 });`);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    delete config.mcpServers.alpha;
    await writeFile(join(home.dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
    // The edit is applied on the next request: a call naming alpha is refused once it is.
    for (let tries = 0; ; tries += 1) {
      const refused = await run(`return await require("host:mcp-alpha").echo({ text: "x" });`);
      if (refused.error !== undefined) break;
      expect(tries).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const beta = run(`return (await require("host:mcp-beta").pid()).pid;`);
    // alpha's call is still running: beta must wait for its place rather than start a second process.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(isAlive(alphaPid)).toBe(true);
    expect(await startLines("beta")).toEqual([]);

    expect((await slow).error).toBeUndefined();
    const betaAnswer = await beta;
    expect(betaAnswer.error).toBeUndefined();
    expect(await startLines("beta")).toHaveLength(1);
    expect(isAlive(alphaPid)).toBe(false);
    expect(isAlive(betaAnswer.result as number)).toBe(true);
  });
});
