// The gateway half of bench/peers: one `echo` call of the same stdio fixture server
// (tests/fixtures/servers/fixture-server.mjs) reached directly and through each gateway, by the same
// SDK v2 client over streamable HTTP (2025-era sessions: what every gateway here serves), one call at
// a time, warm, in rounds that sample every path once in alternating order so machine load falls on all alike.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { summarize } from "../_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, "..", "..");
const FIXTURE = join(ROOT, "tests", "fixtures", "servers", "fixture-server.mjs");
const MCPVM = join(ROOT, "bin", "mcpvm.js");
const SUPERGATEWAY = join(here, "node_modules", "supergateway", "dist", "index.js");
const MCP_PROXY = join(here, "node_modules", "mcp-proxy", "dist", "bin", "mcp-proxy.mjs");
const ROUNDS = 300;
const WARMUP = 30;
/** Throughput: this many clients (each its own session) calling at once, CALLS_EACH calls each. */
const CLIENTS = 10;
const CALLS_EACH = 100;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function connectHttp(url, token, deadlineMs = 60_000) {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      const client = new Client({ name: "bench-peers", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    } catch (error) {
      if (Date.now() > until) throw new Error(`could not connect to ${url}: ${error.message}`);
      await sleep(200);
    }
  }
}

function startChild(command, args, env = process.env) {
  const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, stderr: () => stderr, close: () => (child.kill("SIGTERM"), exited) };
}

/** A config home where the fixture is approved and its `echo` is exposed as a direct tool (toolset "bench"). */
async function mcpvmHome() {
  const { McpvmHost } = await import(join(ROOT, "dist", "src", "host", "index.js"));
  const { ToolsetStore } = await import(join(ROOT, "dist", "src", "gateway", "index.js"));
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-bench-peers-"));
  // The gateway's default: a bearer token on every HTTP request (the peers here have none).
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir, MCPVM_GATEWAY_TOKEN: randomBytes(24).toString("hex") };
  await writeFile(join(dir, "config.json"), JSON.stringify({ plugins: { mcp: { enabled: true } }, mcpServers: { fx: { command: process.execPath, args: [FIXTURE] } } }), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  const service = await host.requireMcp();
  await service.approve("fx");
  await host.close();
  await new ToolsetStore(join(dir, "toolsets.json")).save({ name: "bench", tools: ["fx.echo"] });
  return { dir, env };
}

async function startMcpvm(env) {
  const started = startChild(process.execPath, [MCPVM, "serve", "--toolset", "bench", "--log-level", "warn", "--http", "127.0.0.1:0"], env);
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: started.child.stderr }).on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match !== null) resolve(match[1]);
    });
    started.child.once("exit", (code) => reject(new Error(`mcpvm serve exited (${code}): ${started.stderr()}`)));
  });
  return { ...started, url };
}

/** Every path's per-call latency (ms), p50/p95, and the versions of what ran. */
export async function measureGateways(versions) {
  const paths = {};
  const closers = [];
  const failures = {};
  let home;
  try {
    const direct = new Client({ name: "bench-peers", version: "1" });
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: "ignore" }));
    closers.push(() => direct.close());
    paths.direct = { client: direct, tool: "echo" };

    const attempts = [
      ["mcpvm", async () => {
        home = await mcpvmHome();
        const gateway = await startMcpvm(home.env);
        closers.push(gateway.close);
        const connect = () => connectHttp(gateway.url, home.env.MCPVM_GATEWAY_TOKEN);
        return { client: await connect(), connect, tool: "fx_echo" };
      }],
      ["supergateway", async () => {
        const port = await freePort();
        const gateway = startChild(process.execPath, [SUPERGATEWAY, "--stdio", `${process.execPath} ${FIXTURE}`, "--outputTransport", "streamableHttp", "--stateful", "--port", String(port), "--logLevel", "none"]);
        closers.push(gateway.close);
        const connect = () => connectHttp(`http://127.0.0.1:${port}/mcp`);
        return { client: await connect(), connect, tool: "echo" };
      }],
      ["mcp-proxy", async () => {
        const port = await freePort();
        const gateway = startChild(process.execPath, [MCP_PROXY, "--port", String(port), "--host", "127.0.0.1", "--server", "stream", "--", process.execPath, FIXTURE]);
        closers.push(gateway.close);
        const connect = () => connectHttp(`http://127.0.0.1:${port}/mcp`);
        return { client: await connect(), connect, tool: "echo" };
      }],
    ];
    for (const [name, start] of attempts) {
      process.stderr.write(`peers: gateway ${name} …\n`);
      try {
        paths[name] = await start();
        closers.push(() => paths[name].client.close());
      } catch (error) {
        failures[name] = String(error?.message ?? error).slice(0, 300);
      }
    }

    const names = Object.keys(paths);
    const call = async (name) => {
      const { client, tool } = paths[name];
      const result = await client.callTool({ name: tool, arguments: { text: "x" } });
      if (result.isError === true) throw new Error(`${name}: echo failed: ${JSON.stringify(result.content)}`);
    };
    for (let i = 0; i < WARMUP; i++) for (const name of names) await call(name);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const start = performance.now();
        await call(name);
        samples[name].push(performance.now() - start);
      }
    }
    const results = Object.fromEntries(names.map((n) => [n, { version: versions[n] ?? "", ...summarize(samples[n]) }]));
    // Throughput: CLIENTS sessions calling at once through each gateway (the direct stdio path has one connection, so none).
    for (const name of names.filter((n) => paths[n].connect !== undefined)) {
      process.stderr.write(`peers: throughput ${name} …\n`);
      const clients = await Promise.all(Array.from({ length: CLIENTS }, () => paths[name].connect()));
      const callOn = (client) => client.callTool({ name: paths[name].tool, arguments: { text: "x" } });
      await Promise.all(clients.map((client) => callOn(client)));
      const start = performance.now();
      await Promise.all(clients.map(async (client) => {
        for (let i = 0; i < CALLS_EACH; i++) await callOn(client);
      }));
      results[name].callsPerSecond = (CLIENTS * CALLS_EACH) / ((performance.now() - start) / 1000);
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
    }
    for (const [name, error] of Object.entries(failures)) results[name] = { version: versions[name] ?? "", error };
    return results;
  } finally {
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => {});
    if (home !== undefined) await rm(home.dir, { recursive: true, force: true });
  }
}
