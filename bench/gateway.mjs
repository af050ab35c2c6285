// The gateway under load (issue 6): 1,000 direct tool calls from 10 concurrent HTTP clients on
// loopback (none lost or mixed up), throughput and latency, RSS before/after, and the gateway's
// overhead per direct tool call against calling the same upstream server directly, measured
// within one run with the two cases interleaved.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";
import { startGateway, ToolsetStore } from "../dist/src/gateway/index.js";
import { fmt, summarize, table, time, verdict } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(here, "..", "tests", "fixtures", "servers", "fixture-server.mjs");
const CLIENTS = 10;
const CALLS_PER_CLIENT = 100;
const OVERHEAD_ROUNDS = 200;
const TARGET_RATIO = 1.15;
/** A tool that takes 10 ms of work, like a quick real tool; the 0 ms one shows the bare added cost. */
const TOOL_LATENCY_MS = 10;

const fixture = (latency) => ({ command: process.execPath, args: [FIXTURE], env: { MCPVM_FIXTURE_ARGS: latency > 0 ? `--latency ${latency}` : "" } });

async function makeHome() {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-bench-gw-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const servers = { bare: fixture(0), work: fixture(TOOL_LATENCY_MS) };
  const config = { plugins: { mcp: { enabled: true, config: { callsPerSecond: 10_000 } } }, mcpServers: servers };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  const service = await host.requireMcp();
  for (const name of Object.keys(servers)) await service.approve(name);
  await host.close();
  await new ToolsetStore(join(dir, "toolsets.json")).save({ name: "bench", tools: ["bare.echo", "work.echo"] });
  return { dir, env, servers };
}

async function httpClient(url, name) {
  const client = new Client({ name, version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

function textOf(result) {
  return result.content?.[0]?.type === "text" ? result.content[0].text : "";
}

async function load(url) {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => httpClient(url, `load-${i}`)));
  const latencies = [];
  let wrong = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < CALLS_PER_CLIENT; i += 1) {
        const text = `c${c}-${i}`;
        let got = "";
        latencies.push(await time(async () => (got = textOf(await client.callTool({ name: "bare_echo", arguments: { text } })))));
        if (got !== text) wrong += 1;
      }
    }),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  await Promise.all(clients.map((c) => c.close()));
  return { calls: latencies.length, wrong, elapsedMs, throughput: (latencies.length / elapsedMs) * 1000, ...summarize(latencies) };
}

/** Sequential calls of one tool through the gateway and straight to a second copy of its server, interleaved. */
async function overhead(url, gatewayCore, server, launch) {
  const viaGateway = await httpClient(url, "overhead");
  const direct = new Client({ name: "direct", version: "1" });
  await direct.connect(new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...process.env, ...launch.env }, stderr: "ignore" }));
  const samples = { gateway: [], direct: [], core: [] };
  const cases = {
    gateway: () => viaGateway.callTool({ name: `${server}_echo`, arguments: { text: "x" } }),
    direct: () => direct.callTool({ name: "echo", arguments: { text: "x" } }),
  };
  const signal = new AbortController().signal;
  cases.core = () => gatewayCore.callTool(`${server}_echo`, { text: "x" }, { signal, session: "bench", rpcId: 0 });
  for (let i = 0; i < 20; i += 1) for (const fn of Object.values(cases)) await fn();
  for (let round = 0; round < OVERHEAD_ROUNDS; round += 1) {
    const order = round % 2 === 0 ? ["gateway", "direct", "core"] : ["core", "direct", "gateway"];
    for (const name of order) samples[name].push(await time(cases[name]));
  }
  await Promise.all([viaGateway.close(), direct.close()]);
  const gateway = summarize(samples.gateway);
  const straight = summarize(samples.direct);
  const core = summarize(samples.core);
  return { gateway, direct: straight, core, ratioP50: gateway.p50 / straight.p50, addedP50Ms: gateway.p50 - straight.p50, coreRatioP50: core.p50 / straight.p50 };
}

export default async function () {
  const home = await makeHome();
  const rssBefore = process.memoryUsage().rss;
  const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, toolset: "bench", logLevel: "error", pretty: false });
  try {
    const url = new URL(running.url);
    const rssStarted = process.memoryUsage().rss;
    const loaded = await load(url);
    const rssAfter = process.memoryUsage().rss;
    const bare = await overhead(url, running.gateway, "bare", home.servers.bare);
    const work = await overhead(url, running.gateway, "work", home.servers.work);
    const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const markdown = [
      `${loaded.calls} direct tool calls (\`bare_echo\`) from ${CLIENTS} concurrent streamable-HTTP clients (SDK v2, 2026-07-28) on 127.0.0.1, gateway in the bench process, upstream fixture server over stdio.`,
      "",
      table(
        ["calls", "wrong or lost", "wall", "throughput", "p50", "p95", "max"],
        [[String(loaded.calls), String(loaded.wrong + (CLIENTS * CALLS_PER_CLIENT - loaded.calls)), fmt(loaded.elapsedMs, 0), `${loaded.throughput.toFixed(0)} calls/s`, fmt(loaded.p50), fmt(loaded.p95), fmt(loaded.max)]],
      ),
      "",
      `RSS of the process running the gateway: ${mb(rssBefore)} before start, ${mb(rssStarted)} after start, ${mb(rssAfter)} after the load.`,
      "",
      `Overhead per direct tool call, ${OVERHEAD_ROUNDS} sequential calls each, interleaved: through the gateway (client -> HTTP -> gateway -> stdio -> server) vs the same server called directly over stdio. Target: p50 ratio <= ${TARGET_RATIO} for a tool doing ${TOOL_LATENCY_MS} ms of work.`,
      "\"gateway core\" is the same call made in-process on the Gateway object (trust checks, validation, rate limit, routing, logging, upstream stdio call) without the client's and the SDK server's HTTP stack: the difference between the two is the streamable-HTTP transport.",
      "",
      table(
        ["tool", "gateway over HTTP p50", "gateway core p50", "direct p50", "gateway over HTTP p95", "direct p95", "added p50 (HTTP)", "p50 ratio HTTP / core", "target"],
        [
          ["echo, 0 ms of work", fmt(bare.gateway.p50), fmt(bare.core.p50), fmt(bare.direct.p50), fmt(bare.gateway.p95), fmt(bare.direct.p95), fmt(bare.addedP50Ms), `${bare.ratioP50.toFixed(2)} / ${bare.coreRatioP50.toFixed(2)}`, "(bare cost, no target)"],
          [`echo, ${TOOL_LATENCY_MS} ms of work`, fmt(work.gateway.p50), fmt(work.core.p50), fmt(work.direct.p50), fmt(work.gateway.p95), fmt(work.direct.p95), fmt(work.addedP50Ms), `${work.ratioP50.toFixed(2)} / ${work.coreRatioP50.toFixed(2)}`, verdict(work.ratioP50 <= TARGET_RATIO)],
        ],
      ),
    ].join("\n");
    return {
      title: "Gateway: load and per-call overhead",
      markdown,
      data: { load: loaded, rss: { before: rssBefore, started: rssStarted, after: rssAfter }, overhead: { bare, work, targetRatio: TARGET_RATIO, toolLatencyMs: TOOL_LATENCY_MS } },
    };
  } finally {
    await running.close();
    await rm(home.dir, { recursive: true, force: true });
  }
}
