// What the resumable-stream event store (src/gateway/event-store.ts) costs on the 2025-session SSE call path
// (issue 15, wave 25): `mcpvm serve --http` from two or more checkouts (each a root holding bin/, dist/,
// package.json and node_modules), all with the fast lane off so that every call takes the SDK transport's SSE
// path (as calls of clients declaring roots, sampling or elicitation do), in front of the raw echo server.
// The load is raw keep-alive node:http: N 2025-11-25 sessions, each making sequential tools/call requests,
// answers read from the SSE body and checked; the sessions live across rounds (long sessions reach the
// store's caps), rounds interleaved with the order reversed every round. Files starting with _ are not
// sections of `npm run bench`.
//   node bench/_gw-events-ab.mjs label=root label=root [calls per client] [clients] [rounds] [answer characters]
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { BENCH_TOKEN, cpuOfTree, makeHome, rssOf, SERVE_ARGS } from "./_gw-load.mjs";
import { RAW_ECHO } from "./_gw-lean.mjs";
import { fmt, summarize, table } from "./_stats.mjs";

const VERSION = "2025-11-25";

function startGateway(root, env) {
  const child = spawn(process.execPath, [join(root, "bin", "mcpvm.js"), ...SERVE_ARGS, "--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let last = "";
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr }).on("line", (line) => {
      last = line;
      const match = /listening on (\S+)/.exec(line);
      if (match !== null) resolve({ url: new URL(match[1]), pid: child.pid, close: () => new Promise((done) => (child.once("exit", done), child.kill("SIGTERM"))) });
    });
    child.once("exit", (code) => reject(new Error(`${root}: mcpvm serve --http exited (${code}) before listening: ${last}`)));
  });
}

/** One POST; resolves with the status, the session header and the JSON-RPC messages of its body (JSON or SSE). */
function post(url, agent, body, session) {
  const text = JSON.stringify(body);
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${BENCH_TOKEN}`,
    "content-length": Buffer.byteLength(text),
  };
  if (session !== undefined) Object.assign(headers, { "mcp-session-id": session, "mcp-protocol-version": VERSION });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const sse = String(res.headers["content-type"] ?? "").startsWith("text/event-stream");
        const datas = sse ? raw.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => l.slice(6)) : raw === "" ? [] : [raw];
        resolve({ status: res.statusCode, session: res.headers["mcp-session-id"], messages: datas.map((d) => JSON.parse(d)), bytes: raw.length });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(text);
  });
}

async function openSession(url, agent) {
  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "events-ab", version: "1" } } };
  const opened = await post(url, agent, init);
  if (opened.status !== 200 || typeof opened.session !== "string") throw new Error(`initialize: HTTP ${opened.status}`);
  await post(url, agent, { jsonrpc: "2.0", method: "notifications/initialized" }, opened.session);
  return opened.session;
}

/** `sessions.length` clients, each `calls` sequential echo calls in its session; latencies and CPU per call. */
async function round(gateway, sessions, calls, offset, pad) {
  const latencies = [];
  let wrong = 0;
  let bytes = 0;
  const before = cpuOfTree(gateway.pid);
  const started = process.hrtime.bigint();
  await Promise.all(sessions.map(async (session, c) => {
    for (let i = 0; i < calls; i += 1) {
      const id = offset + c * calls + i + 1;
      const text = `c${c}-${id}`.padEnd(pad, "x");
      const t0 = process.hrtime.bigint();
      const answer = await post(gateway.url, gateway.agent, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "raw_echo", arguments: { text } } }, session);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      bytes += answer.bytes;
      const got = answer.messages.find((m) => m.id === id)?.result?.content?.[0]?.text;
      if (got !== text) wrong += 1;
    }
  }));
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after = cpuOfTree(gateway.pid);
  const n = latencies.length;
  return { calls: n, wrong, bytesPerAnswer: bytes / n, throughput: (n / elapsedMs) * 1000, cpuUs: ((after.self - before.self) * 1000) / n, upstreamCpuUs: ((after.descendants - before.descendants) * 1000) / n, ...summarize(latencies) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function eventsAb(roots, { calls = 200, clients = 10, rounds = 6, pad = 0 } = {}) {
  const home = await makeHome({ raw: { command: process.execPath, args: [RAW_ECHO] } }, ["raw.echo"]);
  const env = { ...home.env, MCPVM_GATEWAY_FAST_LANE: "0" };
  const startLoad = loadavg().map((l) => l.toFixed(2)).join(" / ");
  const gateways = [];
  try {
    for (const [label, root] of roots) {
      const gateway = { label, root, ...(await startGateway(root, env)), agent: new Agent({ keepAlive: true, maxSockets: clients }), runs: [] };
      gateways.push(gateway);
      gateway.sessions = await Promise.all(Array.from({ length: clients }, () => openSession(gateway.url, gateway.agent)));
      // Warm-up: the JIT, the upstream's process, and each session's store up to its caps.
      await round(gateway, gateway.sessions, calls, 1e7, pad);
    }
    for (let r = 0; r < rounds; r += 1) {
      for (const gateway of r % 2 === 0 ? gateways : [...gateways].reverse()) gateway.runs.push(await round(gateway, gateway.sessions, calls, r * 1e6, pad));
    }
    const endLoad = loadavg().map((l) => l.toFixed(2)).join(" / ");
    const rows = gateways.map((g) => {
      const pick = (key) => median(g.runs.map((run) => run[key]));
      return { label: g.label, root: g.root, rssMb: rssOf(g.pid) / 1e6, wrong: g.runs.reduce((a, run) => a + run.wrong, 0), calls: g.runs.reduce((a, run) => a + run.calls, 0), p50: pick("p50"), p95: pick("p95"), cpuUs: pick("cpuUs"), upstreamCpuUs: pick("upstreamCpuUs"), throughput: pick("throughput"), bytesPerAnswer: pick("bytesPerAnswer"), cpuRounds: g.runs.map((run) => run.cpuUs.toFixed(0)).join(" ") };
    });
    const markdown = [
      `${clients} 2025-11-25 sessions (fast lane off: the SDK's SSE path), ${calls} sequential echo calls each per round (answers of ${pad || "a few"} characters), ${rounds} interleaved rounds after one warm-up round; median of the rounds; load average ${startLoad} at start, ${endLoad} at the end.`,
      "",
      table(
        ["gateway", "calls", "wrong", "p50", "p95", "gateway CPU per call (median)", "per round", "upstream CPU per call", "throughput", "SSE body per answer", "gateway RSS at the end"],
        rows.map((r) => [r.label, String(r.calls), String(r.wrong), fmt(r.p50), fmt(r.p95), fmt(r.cpuUs / 1000), r.cpuRounds, fmt(r.upstreamCpuUs / 1000), `${r.throughput.toFixed(0)} calls/s`, `${r.bytesPerAnswer.toFixed(0)} B`, `${r.rssMb.toFixed(1)} MB`]),
      ),
    ].join("\n");
    return { markdown, rows };
  } finally {
    for (const gateway of gateways) {
      gateway.agent.destroy();
      await gateway.close();
    }
    await rm(home.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const roots = process.argv.slice(2).filter((a) => a.includes("=")).map((a) => a.split("=", 2));
  const [calls, clients, rounds, pad] = process.argv.slice(2).filter((a) => !a.includes("=")).map(Number);
  if (roots.length < 2) throw new Error("usage: node bench/_gw-events-ab.mjs label=root label=root [calls per client] [clients] [rounds] [answer characters]");
  const { markdown } = await eventsAb(roots, { calls, clients, rounds, pad });
  process.stdout.write(`${markdown}\n`);
  process.exit(0);
}
