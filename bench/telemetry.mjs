// Telemetry cost (issue 14): a direct tool call through `mcpvm serve --http` (in process, modern
// client, stdio upstream) with OpenTelemetry off (no OTEL_* variables: no SDK loaded) and on
// (traces and metrics over OTLP/HTTP to a local receiver, plus the Prometheus reader), rounds
// alternating so drift on a shared machine hits both; and the bare cost of one hook, off and on.
import { createServer } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpvmHost } from "../dist/src/host/index.js";
import { startGateway, ToolsetStore } from "../dist/src/gateway/index.js";
import { NOOP_TELEMETRY, startTelemetry } from "../dist/src/telemetry/index.js";
import { fmt, summarize, table, time } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(here, "..", "tests", "fixtures", "servers", "fixture-server.mjs");
const TOKEN = "bench-telemetry-token-0123456789";
const ROUNDS = 3;
const CALLS = 300;
const WARMUP = 30;
const HOOK_OPS = 200_000;

async function makeHome() {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-bench-otel-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const config = { plugins: { mcp: { enabled: true, config: { callsPerSecond: 10_000 } } }, mcpServers: { fx: { command: process.execPath, args: [FIXTURE] } } };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  await (await host.requireMcp()).approve("fx");
  await host.close();
  await new ToolsetStore(join(dir, "toolsets.json")).save({ name: "bench", tools: ["fx.echo"] });
  return { dir, env };
}

/** A collector stand-in that accepts and drops every export. */
async function startNullReceiver() {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      exports += 1;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

async function round(env) {
  const running = await startGateway({ env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, toolset: "bench", logLevel: "warn", pretty: false });
  const client = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  for (let i = 0; i < WARMUP; i += 1) await client.callTool({ name: "fx_echo", arguments: { text: "w" } });
  const samples = [];
  for (let i = 0; i < CALLS; i += 1) samples.push(await time(() => client.callTool({ name: "fx_echo", arguments: { text: `c${i}` } })));
  await client.close();
  await running.close();
  return samples;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** ns per call of one hook around an already-resolved piece of work. */
async function hookCost(telemetry) {
  const work = () => Promise.resolve(1);
  const info = { server: "fx", tool: "echo" };
  for (let i = 0; i < 10_000; i += 1) await telemetry.upstreamCall(info, work);
  const started = process.hrtime.bigint();
  for (let i = 0; i < HOOK_OPS; i += 1) await telemetry.upstreamCall(info, work);
  return Number(process.hrtime.bigint() - started) / HOOK_OPS;
}

async function bareCost() {
  const work = () => Promise.resolve(1);
  for (let i = 0; i < 10_000; i += 1) await work();
  const started = process.hrtime.bigint();
  for (let i = 0; i < HOOK_OPS; i += 1) await work();
  return Number(process.hrtime.bigint() - started) / HOOK_OPS;
}

export default async function () {
  const home = await makeHome();
  const receiver = await startNullReceiver();
  const onEnv = { ...home.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_METRICS_EXPORTER: "otlp,prometheus", OTEL_METRIC_EXPORT_INTERVAL: "1000", OTEL_BSP_SCHEDULE_DELAY: "200" };
  const off = [];
  const on = [];
  try {
    for (let r = 0; r < ROUNDS; r += 1) {
      off.push(...(await round(home.env)));
      on.push(...(await round(onEnv)));
    }
    const bare = await bareCost();
    const hookOff = await hookCost(NOOP_TELEMETRY);
    const started = await startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "200" });
    const hookOn = await hookCost(started);
    await started.shutdown();
    const a = summarize(off);
    const b = summarize(on);
    const data = { calls: off.length, off: { ...a, mean: mean(off) }, on: { ...b, mean: mean(on) }, exports: receiver.exports(), hookNs: { bare, off: hookOff, on: hookOn } };
    const markdown = [
      `${off.length} direct tool calls each way (\`fx_echo\`, stdio fixture, modern HTTP client, sequential), ${ROUNDS} alternating rounds; "on" exports traces`,
      `and metrics over OTLP/HTTP (protobuf) to a local receiver (${data.exports} export requests) and keeps the Prometheus reader.`,
      "",
      table(
        ["telemetry", "p50", "p95", "mean"],
        [
          ["off (no OTEL_* variables)", fmt(a.p50), fmt(a.p95), fmt(data.off.mean)],
          ["on (OTLP traces + metrics)", fmt(b.p50), fmt(b.p95), fmt(data.on.mean)],
          ["difference", fmt(b.p50 - a.p50), fmt(b.p95 - a.p95), fmt(data.on.mean - data.off.mean)],
        ],
      ),
      "",
      `One hook (\`upstreamCall\` around resolved work), ${HOOK_OPS.toLocaleString("en")} calls: bare await ${data.hookNs.bare.toFixed(0)} ns, off ${data.hookNs.off.toFixed(0)} ns, on ${data.hookNs.on.toFixed(0)} ns (span + metrics).`,
    ].join("\n");
    return { title: "Telemetry overhead (OpenTelemetry off vs on)", markdown, data };
  } finally {
    await receiver.close();
    await rm(home.dir, { recursive: true, force: true });
  }
}
