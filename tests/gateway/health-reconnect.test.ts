import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { exchange, modernCall, modernHeaders, TOKEN } from "./fast-lane-support.js";
import { FIXTURE, makeHome, type TestHome } from "./helpers.js";

/** A port free now, for an upstream that must come back on the same address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The fixture as a streamable HTTP server on `port` (it runs while its stdin is open). */
async function startUpstream(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [FIXTURE, "--transport", "http", "--port", String(port)], { stdio: ["pipe", "pipe", "ignore"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the upstream exited (${code})`)));
  });
  return child;
}

async function stopUpstream(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * An HTTP upstream that goes away and comes back: the health monitor withdraws its direct tools at
 * an interval round, and must bring them back when a reconnect's backoff ends (reconnectBaseMs), not
 * only at the next round (healthIntervalMs, 30 s by default). Real gateway in this process, the
 * fixture as a real HTTP server process, real HTTP on 127.0.0.1.
 */
describe("gateway health monitor: an HTTP upstream back after a blip", () => {
  const intervalMs = 4_000;
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  let port: number;
  let upstream: ChildProcess | undefined;

  beforeAll(async () => {
    port = await freePort();
    upstream = await startUpstream(port);
    home = await makeHome({
      servers: { web: { type: "http", url: `http://127.0.0.1:${port}/mcp` } },
      gateway: { healthIntervalMs: intervalMs, reconnectBaseMs: 100, reconnectMaxMs: 200 },
    });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "t", tools: ["web.echo"] });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent", toolset: "t" });
    url = new URL(running.url as string);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    if (upstream !== undefined) await stopUpstream(upstream);
    await home?.cleanup();
  });

  async function echo(): Promise<string> {
    const answer = await exchange(url, modernHeaders("web_echo"), modernCall(1, "web_echo", { text: "hi" }));
    const message = answer.message as { result?: { content?: Array<{ text?: string }> }; error?: { data?: { code?: string } } };
    // A withdrawn tool is unknown to the gateway: a JSON-RPC error whose data names the code.
    return message.error?.data?.code ?? message.result?.content?.[0]?.text ?? "";
  }

  it("its direct tools come back within the reconnect backoff, well before the next health round", { timeout: 30_000 }, async () => {
    expect(await echo()).toBe("hi");
    await stopUpstream(upstream as ChildProcess);
    upstream = undefined;
    // A round finds it gone (its ping fails, the reconnect is refused) and withdraws its tools.
    const withdrawnBy = Date.now() + intervalMs * 2 + 2_000;
    while (!(await echo()).includes("GATEWAY_TOOL_UNKNOWN") && Date.now() < withdrawnBy) await sleep(100);
    expect(await echo()).toContain("GATEWAY_TOOL_UNKNOWN");
    await sleep(500);
    upstream = await startUpstream(port);
    const back = Date.now();
    while ((await echo()) !== "hi" && Date.now() - back < intervalMs * 2) await sleep(50);
    expect(await echo()).toBe("hi");
    // The next round is about intervalMs - 500 ms away; the backoff (at most 200 ms) must win clearly.
    expect(Date.now() - back).toBeLessThan(intervalMs / 2);
  });
});
