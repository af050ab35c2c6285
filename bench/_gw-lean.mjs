// The lean load run of bench/gateway.mjs (issue 14 "Load", issue 15 gateway rows): a load generator
// that costs little itself — raw keep-alive node:http requests with bodies built from a template,
// no SDK client — against the gateway with its fast lane, the gateway with it off, and the minimal
// SDK proxy, each in front of a lean raw JSON-RPC echo server and of the SDK fixture server. Every
// answer is checked against what its client sent (wrong = lost or crossed).
//   node bench/_gw-lean.mjs [calls per client] [rounds]    prints the table alone (after npm run build)
import { rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { BENCH_TOKEN, cpuOfTree, FIXTURE, makeHome, NULL_PROXY, ROOT, startHttpGateway, startUrlServer } from "./_gw-load.mjs";
import { fmt, summarize, table } from "./_stats.mjs";

export const RAW_ECHO = join(ROOT, "tests", "fixtures", "servers", "raw-echo-server.mjs");
const UPSTREAM_CONFIGS = {
  raw: { label: "raw echo (no SDK)", command: process.execPath, args: [RAW_ECHO] },
  sdk: { label: "SDK fixture", command: process.execPath, args: [FIXTURE] },
};
const ENVELOPE = JSON.stringify({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "lean-load", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
});

/**
 * `clients` keep-alive connections, each making `calls` sequential 2026-07-28 tools/call requests
 * of `tool` with {text}; CPU per call of each watched process tree and of this process.
 */
export async function leanLoad(url, { clients, calls, tool, pids = [], warmup = 20 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients, keepAliveMsecs: 10_000 });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${BENCH_TOKEN}`,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": tool,
  };
  const head = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":${JSON.stringify(tool)},"_meta":${ENVELOPE},"arguments":{"text":"`;
  const post = (id, text) =>
    new Promise((resolve, reject) => {
      const body = `${head}${text}"}},"id":${id}}`;
      const req = request(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          try {
            const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            resolve(message.id === id ? (message.result?.content?.[0]?.text ?? `(error ${JSON.stringify(message.error)})`) : `(id ${message.id})`);
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; i < warmup; i += 1) await post(i, `warm${c}`);
  }));
  const latencies = [];
  let wrong = 0;
  let failed = 0;
  const cpuBefore = pids.map(cpuOfTree);
  const ownBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; i < calls; i += 1) {
      const text = `c${c}-${i}`;
      const t0 = process.hrtime.bigint();
      try {
        const got = await post(c * calls + i, text);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (got !== text) wrong += 1;
      } catch {
        failed += 1;
      }
    }
  }));
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const own = process.cpuUsage(ownBefore);
  agent.destroy();
  const perCall = (ms) => (ms * 1000) / Math.max(1, latencies.length);
  const cpuPerCallUs = pids.map((pid, i) => {
    const after = cpuOfTree(pid);
    return { self: perCall(after.self - cpuBefore[i].self), descendants: perCall(after.descendants - cpuBefore[i].descendants) };
  });
  return { calls: latencies.length, wrong, failed, elapsedMs, throughput: (latencies.length / elapsedMs) * 1000, cpuPerCallUs, clientCpuPerCallUs: (own.user + own.system) / Math.max(1, latencies.length), ...summarize(latencies) };
}

const TARGETS = [
  { key: "fast", label: "mcpvm gateway, fast lane" },
  { key: "off", label: "mcpvm gateway, fast lane off" },
  { key: "floor", label: "minimal SDK proxy" },
];

/** Starts everything, runs every case `rounds` times interleaved, and returns the markdown and data. */
export async function leanSection({ calls = 3000, rounds = 2, clientCounts = [10, 50], sdkClientCpu = undefined } = {}) {
  const home = await makeHome(
    Object.fromEntries(Object.entries(UPSTREAM_CONFIGS).map(([key, u]) => [key, { command: u.command, args: u.args }])),
    Object.keys(UPSTREAM_CONFIGS).map((key) => `${key}.echo`),
  );
  const startLoad = loadavg().map((l) => l.toFixed(2)).join(" / ");
  const servers = {};
  try {
    servers.fast = await startHttpGateway(home.env);
    servers.off = await startHttpGateway({ ...home.env, MCPVM_GATEWAY_FAST_LANE: "0" });
    for (const [key, u] of Object.entries(UPSTREAM_CONFIGS)) servers[`floor.${key}`] = await startUrlServer([NULL_PROXY, "http-stdio", u.command, ...u.args], {});
    const cases = [];
    for (const clients of clientCounts) {
      for (const upstream of Object.keys(UPSTREAM_CONFIGS)) {
        for (const target of TARGETS) cases.push({ clients, upstream, target });
      }
    }
    const runs = new Map(cases.map((c) => [c, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
        const server = c.target.key === "floor" ? servers[`floor.${c.upstream}`] : servers[c.target.key];
        const tool = c.target.key === "floor" ? "echo" : `${c.upstream}_echo`;
        runs.get(c).push(await leanLoad(server.url, { clients: c.clients, calls: Math.ceil(calls / c.clients), tool, pids: [server.pid] }));
      }
    }
    const endLoad = loadavg().map((l) => l.toFixed(2)).join(" / ");
    const median = (list) => [...list].sort((a, b) => a.throughput - b.throughput)[Math.floor(list.length / 2)];
    const rows = cases.map((c) => ({ ...c, run: median(runs.get(c)), all: runs.get(c) }));
    const ceiling = (run) => (cpus().length * 1e6) / (run.cpuPerCallUs[0].self + run.cpuPerCallUs[0].descendants + run.clientCpuPerCallUs);
    const markdown = [
      `**Lean load** (issue 14 "Load", issue 15 gateway rows): the load generator is raw keep-alive \`node:http\` requests with bodies built from one template (no SDK client: ${fmt(median(rows.map((r) => r.run)).clientCpuPerCallUs / 1000)} of its own CPU per call in the median case, where the SDK clients of the run above spend ${sdkClientCpu === undefined ? "more" : fmt(sdkClientCpu / 1000)}), each client waiting for its answer before the next call; 2026-07-28 stateless \`tools/call\` of an echo tool with a bearer token, every answer checked against what its client sent. Front: \`mcpvm serve --http\` with its fast lane, the same with \`MCPVM_GATEWAY_FAST_LANE=0\` (the SDK path), and the minimal SDK proxy (\`bench/_null-proxy.mjs http-stdio\`); behind each, over stdio, the raw echo server (\`tests/fixtures/servers/raw-echo-server.mjs\`, newline JSON-RPC without an SDK) or the SDK fixture server. ${calls} calls per case (spread over its clients), ${rounds} interleaved rounds (order reversed every round), the median round shown; ${cpus().length} cores, load average ${startLoad} at start and ${endLoad} at the end (other work shares this machine).`,
      "",
      table(
        ["clients", "upstream", "front", "calls", "wrong or lost", "throughput", "p50", "p95", "front's CPU per call", "upstream's CPU per call", "load generator's CPU per call", "ceiling: cores ÷ all CPU per call"],
        rows.map(({ clients, upstream, target, run }) => [
          String(clients),
          UPSTREAM_CONFIGS[upstream].label,
          target.label,
          String(run.calls),
          String(run.wrong + run.failed),
          `${run.throughput.toFixed(0)} calls/s`,
          fmt(run.p50),
          fmt(run.p95),
          fmt(run.cpuPerCallUs[0].self / 1000),
          fmt(run.cpuPerCallUs[0].descendants / 1000),
          fmt(run.clientCpuPerCallUs / 1000),
          `${ceiling(run).toFixed(0)} calls/s`,
        ]),
      ),
    ].join("\n");
    return { markdown, rows: rows.map(({ clients, upstream, target, run, all }) => ({ clients, upstream, target: target.key, run, rounds: all.map((r) => r.throughput) })), startLoad, endLoad };
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.close()));
    await rm(home.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "--profile") {
  // profileFastLane is declared (and hoisted) below.
  const profiled = await profileFastLane(process.argv[3] ?? "raw", Number(process.argv[4] ?? 300), Number(process.argv[5] ?? 10));
  process.stdout.write(`${JSON.stringify({ throughput: profiled.run.throughput, p50: profiled.run.p50, cpuPerCallUs: profiled.run.cpuPerCallUs, wrong: profiled.run.wrong })}\n${profiled.text}\n`);
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const section = await leanSection({ calls: Number(process.argv[2] ?? 3000), rounds: Number(process.argv[3] ?? 2) });
  process.stdout.write(`${section.markdown}\n`);
  process.exit(0);
}

/**
 * The fast-lane gateway under --cpu-prof with the same lean load: its time by function (text) and by
 * the package or mcpvm file that asked for it (rows), in the load window only.
 *   node bench/_gw-lean.mjs --profile [raw|sdk] [calls per client] [clients]
 */
export async function profileFastLane(upstream = "raw", calls = 300, clients = 10) {
  const { mkdtemp, readdir, readFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { mainThreadProfile, summarize: summarizeProfile, timeByAsker } = await import("./_cpuprofile.mjs");
  const u = UPSTREAM_CONFIGS[upstream];
  const home = await makeHome({ [upstream]: { command: u.command, args: u.args } }, [`${upstream}.echo`]);
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-lean-prof-"));
  try {
    const gateway = await startHttpGateway(home.env, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
    let run;
    try {
      run = await leanLoad(gateway.url, { clients, calls, tool: `${upstream}_echo`, pids: [gateway.pid] });
    } finally {
      await gateway.close();
    }
    const file = mainThreadProfile(await readdir(dir));
    if (file === undefined) return { run, text: "(no profile written)", asked: undefined };
    const profile = JSON.parse(await readFile(join(dir, file), "utf8"));
    return { run, text: summarizeProfile(profile, { calls: run.calls, top: 45, marker: "serveModern" }), asked: timeByAsker(profile, { marker: "serveModern" }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(home.dir, { recursive: true, force: true });
  }
}

/** The profile's biggest askers as a markdown table, and mcpvm's files and the SDK together. */
export function fastLaneProfileTable({ run, asked }, top = 14) {
  if (asked === undefined || !asked.found) return "(the profile could not be read)";
  const sum = (rows) => rows.reduce((a, r) => a + r.us, 0);
  const line = (label, us) => [label, `${((us / asked.busyUs) * 100).toFixed(1)} %`, fmt(us / run.calls / 1000)];
  return [
    table(["asked for by", "share of busy time", "sampled time per call"], [
      ...asked.rows.slice(0, top).map((r) => line(r.bucket, r.us)),
      line(`**all of mcpvm's own files** (${asked.rows.filter((r) => r.bucket.startsWith("mcpvm ")).length})`, sum(asked.rows.filter((r) => r.bucket.startsWith("mcpvm ")))),
      line("**the SDK** (@modelcontextprotocol/*, zod)", sum(asked.rows.filter((r) => r.bucket.startsWith("@modelcontextprotocol/") || r.bucket === "zod"))),
    ]),
    "",
    `Profiled run: ${run.calls} calls at ${run.throughput.toFixed(0)} calls/s under the profiler; busy ${(asked.busyUs / 1e6).toFixed(1)} s, idle ${(asked.idleUs / 1e6).toFixed(1)} s of the gateway's main thread in the load window. Native work (socket and pipe writes, hashing, JSON parsing) is charged to the file that asked for it; on a loaded machine samples also land where the thread was preempted, so read the shares, not the times.`,
  ].join("\n");
}
