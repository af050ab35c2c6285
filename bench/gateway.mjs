// The gateway under load (issue 6): 1,000 direct tool calls from 10 concurrent HTTP clients on
// loopback (none lost or mixed up), throughput and latency, RSS of the gateway process before and
// after, and the gateway's overhead per direct tool call against calling the same upstream
// server directly — with the same SDK client over the same transport kind, interleaved, warm.
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";
import { startGateway, ToolsetStore } from "../dist/src/gateway/index.js";
import { fmt, summarize, table, time, verdict } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(here, "..", "tests", "fixtures", "servers", "fixture-server.mjs");
const MCPVM = join(here, "..", "bin", "mcpvm.js");
const NULL_PROXY = join(here, "_null-proxy.mjs");
const CLIENTS = 10;
const CALLS_PER_CLIENT = 100;
const ROUNDS = 200;
const WARMUP = 20;
const TARGET_RATIO = 1.15;
/** The target is for a tool doing 10 ms of work, like a quick real tool; 0 ms shows the bare cost of each hop. */
const WORK_MS = 10;
const LATENCIES = [0, WORK_MS];
/** Console logs at warn (each call is still logged to the per-run log file, as in real use). */
const SERVE_ARGS = ["serve", "--toolset", "bench", "--log-level", "warn"];

const fixtureArgs = (latency) => (latency > 0 ? `--latency ${latency}` : "");
const stdioFixture = (latency) => ({ command: process.execPath, args: [FIXTURE], env: { MCPVM_FIXTURE_ARGS: fixtureArgs(latency) } });
const stdioName = (latency) => `s${latency}`;
const httpName = (latency) => `h${latency}`;

/** A child that serves streamable HTTP and prints {"url"} on stdout (the fixture, the null proxy); it exits when its stdin ends. */
async function startUrlServer(args, extraEnv) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...extraEnv }, stdio: ["pipe", "pipe", "ignore"] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before printing its URL`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { url: new URL(JSON.parse(line).url), close: () => (child.stdin.end(), exited) };
}

/** The fixture as a streamable-HTTP server (2025-era sessions) in its own process. */
const startHttpFixture = (latency) => startUrlServer([FIXTURE, "--transport", "http"], { MCPVM_FIXTURE_ARGS: fixtureArgs(latency) });

async function makeHome(httpUrls) {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-bench-gw-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const servers = {};
  for (const latency of LATENCIES) {
    servers[stdioName(latency)] = stdioFixture(latency);
    servers[httpName(latency)] = { type: "http", url: httpUrls[latency].href };
  }
  const config = { plugins: { mcp: { enabled: true, config: { callsPerSecond: 10_000 } } }, mcpServers: servers };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  const service = await host.requireMcp();
  for (const name of Object.keys(servers)) await service.approve(name);
  await host.close();
  await new ToolsetStore(join(dir, "toolsets.json")).save({ name: "bench", tools: Object.keys(servers).map((name) => `${name}.echo`) });
  return { dir, env };
}

/** `mcpvm serve --http` as its own process, as people run it; resolves once it prints its URL. */
async function startHttpGateway(env) {
  const child = spawn(process.execPath, [MCPVM, ...SERVE_ARGS, "--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match !== null) resolve(new URL(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`mcpvm serve --http exited (${code}) before listening`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { url, pid: child.pid, close: () => (child.kill("SIGTERM"), exited) };
}

/** The resident set of a process, in bytes. */
function rssOf(pid) {
  return Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) * 1024;
}

/** SDK v2 client. `modern` negotiates the 2026-07-28 revision; otherwise the 2025 handshake today's editors use. */
async function connect(transport, modern = false) {
  const client = new Client({ name: "bench", version: "1" }, modern ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(transport);
  return client;
}

const httpClient = (url, modern) => connect(new StreamableHTTPClientTransport(url), modern);
const textOf = (result) => (result.content?.[0]?.type === "text" ? result.content[0].text : "");

async function load(url) {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => httpClient(url, true)));
  const latencies = [];
  let wrong = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < CALLS_PER_CLIENT; i += 1) {
        const text = `c${c}-${i}`;
        let got = "";
        latencies.push(await time(async () => (got = textOf(await client.callTool({ name: `${stdioName(0)}_echo`, arguments: { text } })))));
        if (got !== text) wrong += 1;
      }
    }),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  await Promise.all(clients.map((c) => c.close()));
  return { calls: latencies.length, wrong, elapsedMs, throughput: (latencies.length / elapsedMs) * 1000, ...summarize(latencies) };
}

/** Every way of calling the echo tool of each latency, sampled round-robin in alternating order. */
async function overhead({ env, httpFixtures, httpFloors, gatewayUrl, core }) {
  const gwStdio = await connect(new StdioClientTransport({ command: process.execPath, args: [MCPVM, ...SERVE_ARGS], env, stderr: "ignore" }));
  const gwHttp2025 = await httpClient(gatewayUrl, false);
  const gwHttp2026 = await httpClient(gatewayUrl, true);
  const direct = {};
  for (const latency of LATENCIES) {
    const launch = stdioFixture(latency);
    direct[latency] = {
      stdio: await connect(new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...env, ...launch.env }, stderr: "ignore" })),
      http: await httpClient(httpFixtures[latency].url, false),
      stdioFloor: await connect(new StdioClientTransport({ command: launch.command, args: [NULL_PROXY, "stdio", launch.command, ...launch.args], env: { ...env, ...launch.env }, stderr: "ignore" })),
      httpFloor: await httpClient(httpFloors[latency].url, false),
    };
  }
  const signal = new AbortController().signal;
  const echo = (client, name) => () => client.callTool({ name, arguments: { text: "x" } });
  const cases = {};
  for (const latency of LATENCIES) {
    const s = `${stdioName(latency)}_echo`;
    const h = `${httpName(latency)}_echo`;
    Object.assign(cases, {
      [`${latency}:stdio.direct`]: echo(direct[latency].stdio, "echo"),
      [`${latency}:stdio.gateway`]: echo(gwStdio, s),
      [`${latency}:stdio.floor`]: echo(direct[latency].stdioFloor, "echo"),
      [`${latency}:http.direct`]: echo(direct[latency].http, "echo"),
      [`${latency}:http.gateway`]: echo(gwHttp2025, h),
      [`${latency}:http.floor`]: echo(direct[latency].httpFloor, "echo"),
      [`${latency}:http2026.gateway`]: echo(gwHttp2026, h),
      [`${latency}:mixed.gateway`]: echo(gwHttp2026, s),
      [`${latency}:core.gateway`]: () => core.callTool(s, { text: "x" }, { signal, session: "bench", rpcId: 0 }),
    });
  }
  const names = Object.keys(cases);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < WARMUP; i += 1) for (const n of names) await cases[n]();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const n of round % 2 === 0 ? names : [...names].reverse()) samples[n].push(await time(cases[n]));
  }
  await Promise.all([gwStdio, gwHttp2025, gwHttp2026, ...LATENCIES.flatMap((l) => Object.values(direct[l]))].map((c) => c.close()));
  return Object.fromEntries(names.map((n) => [n, summarize(samples[n])]));
}

/**
 * One row per way of reaching the upstream server: the gateway path, the direct path it is compared
 * with, and, where one exists, the floor: the same calls through a minimal SDK v2 proxy
 * (bench/_null-proxy.mjs: Server in front, Client behind, nothing else) in its own process, which
 * is what any gateway built on this SDK costs before doing any work of its own.
 */
const PATHS = [
  { key: "stdio", label: "stdio → gateway → stdio, vs stdio direct", gateway: "stdio.gateway", direct: "stdio.direct", floor: "stdio.floor" },
  { key: "http", label: "HTTP (2025 client) → gateway → HTTP, vs HTTP direct", gateway: "http.gateway", direct: "http.direct", floor: "http.floor" },
  { key: "http2026", label: "HTTP (2026-07-28 client) → gateway → HTTP, vs HTTP direct (2025: the fixture speaks only 2025)", gateway: "http2026.gateway", direct: "http.direct", floor: undefined },
  { key: "mixed", label: "mixed: HTTP (2026-07-28 client) → gateway → stdio, vs stdio direct", gateway: "mixed.gateway", direct: "stdio.direct", floor: undefined },
  { key: "core", label: "in-process Gateway.callTool → stdio, vs stdio direct (no transport of its own)", gateway: "core.gateway", direct: "stdio.direct", floor: undefined },
];

function compare(stats, latency) {
  return PATHS.map((path) => {
    const gateway = stats[`${latency}:${path.gateway}`];
    const direct = stats[`${latency}:${path.direct}`];
    const floor = path.floor === undefined ? undefined : stats[`${latency}:${path.floor}`];
    return {
      path: path.key,
      label: path.label,
      gateway,
      direct,
      floor,
      addedP50Ms: gateway.p50 - direct.p50,
      ratioP50: gateway.p50 / direct.p50,
      floorRatioP50: floor === undefined ? undefined : floor.p50 / direct.p50,
      ownP50Ms: floor === undefined ? undefined : gateway.p50 - floor.p50,
    };
  });
}

const ratio = (value) => (value === undefined ? "—" : value.toFixed(2));

function overheadTable(rows, withTarget) {
  return table(
    ["path", "via gateway p50", "direct p50", "added p50", "p50 ratio", "minimal SDK proxy p50", "its ratio (the floor)", "gateway − minimal proxy", ...(withTarget ? ["target ≤ " + TARGET_RATIO] : [])],
    rows.map((r) => [
      r.label,
      fmt(r.gateway.p50),
      fmt(r.direct.p50),
      fmt(r.addedP50Ms),
      ratio(r.ratioP50),
      r.floor === undefined ? "—" : fmt(r.floor.p50),
      ratio(r.floorRatioP50),
      r.ownP50Ms === undefined ? "—" : fmt(r.ownP50Ms),
      ...(withTarget ? [r.path === "core" ? "(no transport)" : verdict(r.ratioP50 <= TARGET_RATIO)] : []),
    ]),
  );
}

/** Says, from this run's numbers, where the target is out of reach of any gateway on this SDK. */
function floorNotes(rows) {
  const notes = rows
    .filter((r) => r.floorRatioP50 !== undefined)
    .map((r) =>
      r.floorRatioP50 > TARGET_RATIO
        ? `- ${r.path}: the minimal SDK proxy alone is at ${ratio(r.floorRatioP50)} > ${TARGET_RATIO}: the cost of one more hop of this transport exceeds the target, so no gateway built on this SDK meets it for a ${WORK_MS} ms tool on this machine; mcpvm's own share is ${fmt(r.ownP50Ms)}${r.ownP50Ms < 0 ? " (below zero: at the floor within this run's noise)" : ""}.`
        : `- ${r.path}: the minimal SDK proxy is at ${ratio(r.floorRatioP50)}, leaving ${fmt((TARGET_RATIO - r.floorRatioP50) * r.direct.p50)} for the gateway's own work; it used ${fmt(r.ownP50Ms)}.`,
    );
  return notes.length === 0 ? [] : [...notes, ""];
}

export default async function () {
  const httpFixtures = Object.fromEntries(await Promise.all(LATENCIES.map(async (l) => [l, await startHttpFixture(l)])));
  const httpFloors = Object.fromEntries(await Promise.all(LATENCIES.map(async (l) => [l, await startUrlServer([NULL_PROXY, "http", httpFixtures[l].url.href], {})])));
  const home = await makeHome(Object.fromEntries(LATENCIES.map((l) => [l, httpFixtures[l].url])));
  let gateway;
  let core;
  try {
    gateway = await startHttpGateway(home.env);
    const rssStarted = rssOf(gateway.pid);
    const loaded = await load(gateway.url);
    const rssAfter = rssOf(gateway.pid);
    core = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, toolset: "bench", logLevel: "warn", pretty: false });
    const stats = await overhead({ env: home.env, httpFixtures, httpFloors, gatewayUrl: gateway.url, core: core.gateway });
    const work = compare(stats, WORK_MS);
    const bare = compare(stats, 0);
    const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const markdown = [
      `${loaded.calls} direct tool calls (\`${stdioName(0)}_echo\`, upstream fixture over stdio) from ${CLIENTS} concurrent streamable-HTTP clients (SDK v2, 2026-07-28) to \`mcpvm serve --http\` on 127.0.0.1, in its own process.`,
      "",
      table(
        ["calls", "wrong or lost", "wall", "throughput", "p50", "p95", "max"],
        [[String(loaded.calls), String(loaded.wrong + (CLIENTS * CALLS_PER_CLIENT - loaded.calls)), fmt(loaded.elapsedMs, 0), `${loaded.throughput.toFixed(0)} calls/s`, fmt(loaded.p50), fmt(loaded.p95), fmt(loaded.max)]],
      ),
      "",
      `RSS of the gateway process: ${mb(rssStarted)} after start (toolset equipped, upstream servers connected), ${mb(rssAfter)} after the load.`,
      "",
      `**Overhead per direct tool call** (target: p50 ratio ≤ ${TARGET_RATIO} for a tool doing ${WORK_MS} ms of work). Method: the same SDK v2 client calls the same fixture tool (\`echo\`) either directly or through the gateway, over the same transport kind (stdio: \`mcpvm serve\` as a child process; HTTP: \`mcpvm serve --http\` as a child process, upstream fixture as an HTTP server in its own process); one call at a time, connections and sessions warm (${WARMUP} warm-up rounds), ${ROUNDS} rounds in which every case is sampled once, in alternating order. The gateway logs every call to its log file (console at warn). The floor is the same call through a minimal proxy made of the same SDK v2 parts (\`bench/_null-proxy.mjs\`: a Server in front, a Client behind, its own process, nothing else): what any gateway on this SDK and machine costs before doing work of its own; "gateway − minimal proxy" is mcpvm's own share (approval re-check, pinned-schema validation, rate limit, routing, logging, redaction).`,
      "",
      overheadTable(work, true),
      "",
      ...floorNotes(work),
      "Bare cost (tool doing 0 ms of work):",
      "",
      overheadTable(bare, false),
    ].join("\n");
    return {
      title: "Gateway: load and per-call overhead",
      markdown,
      data: { load: loaded, rss: { started: rssStarted, after: rssAfter }, overhead: { work, bare, targetRatio: TARGET_RATIO, toolLatencyMs: WORK_MS, rounds: ROUNDS, stats } },
    };
  } finally {
    await core?.close();
    await gateway?.close();
    await Promise.all(Object.values(httpFloors).map((f) => f.close()));
    await Promise.all(Object.values(httpFixtures).map((f) => f.close()));
    await rm(home.dir, { recursive: true, force: true });
  }
}
