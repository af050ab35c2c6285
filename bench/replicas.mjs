// Gateway replicas (issue 14 "Load"): calls/s and p50/p95 of direct tool calls through a plain
// round-robin HTTP balancer in front of 1 and 3 `mcpvm serve --http` processes sharing one config
// home, with 10 and 50 concurrent clients, and the RSS of each replica after its load. Run alone:
// npm run bench -- replicas (or node bench/run.mjs --update replicas).
import { cpus, loadavg } from "node:os";
import { rm } from "node:fs/promises";
import { startBalancer } from "./_balancer.mjs";
import { cpuOfTree, load, makeHome, rssOf, startHttpGateway, UPSTREAMS } from "./_gw-load.mjs";
import { fmt, table } from "./_stats.mjs";

/** The same number of calls in every run: 10 clients × 100 or 50 clients × 20. */
const TOTAL_CALLS = Number(process.env.MCPVM_BENCH_REPLICA_CALLS ?? 1_000);
const CLIENT_COUNTS = [10, 50];
const REPLICA_COUNTS = [1, 3];
const ROUNDS = 2;

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const load1 = () => loadavg()[0].toFixed(1);

export default async function () {
  const upstream = UPSTREAMS.fixture;
  const home = await makeHome({ s: upstream.config }, ["s.echo"]);
  const startLoad = loadavg().map((l) => l.toFixed(1)).join(" / ");
  const replicas = [];
  let balancer;
  const rows = [];
  try {
    for (let i = 0; i < Math.max(...REPLICA_COUNTS); i += 1) replicas.push(await startHttpGateway(home.env));
    const rssStarted = replicas.map((r) => rssOf(r.pid));
    // Interleaved: every (replicas, clients) case once per round, so a change of the machine's load hits all alike.
    const cases = REPLICA_COUNTS.flatMap((n) => CLIENT_COUNTS.map((clients) => ({ n, clients })));
    const results = new Map(cases.map((c) => [`${c.n}:${c.clients}`, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
        const targets = replicas.slice(0, c.n);
        balancer = await startBalancer(targets.map((r) => Number(r.url.port)));
        const before = targets.map((r) => cpuOfTree(r.pid));
        const result = await load(balancer.url, { clients: c.clients, calls: Math.round(TOTAL_CALLS / c.clients), tool: "s_echo", upstream, pids: [balancer.pid] });
        const gatewayCpuMs = targets.reduce((sum, r, i) => sum + (cpuOfTree(r.pid).self - before[i].self), 0);
        await balancer.close();
        results.get(`${c.n}:${c.clients}`).push({ ...result, gatewayCpuPerCallUs: (gatewayCpuMs * 1000) / result.calls, perReplica: balancer.perReplica, load1: load1() });
        balancer = undefined;
      }
    }
    const rssAfter = replicas.map((r) => rssOf(r.pid));
    for (const c of cases) {
      const runs = results.get(`${c.n}:${c.clients}`);
      // The round with the median throughput (of two: the lower, the more conservative).
      const best = [...runs].sort((a, b) => a.throughput - b.throughput)[0];
      rows.push({ ...c, runs, shown: best });
    }
    const one10 = rows.find((r) => r.n === 1 && r.clients === 10).shown.throughput;
    const markdown = [
      `${TOTAL_CALLS} direct tool calls (\`s_echo\`: the fixture server over stdio behind each replica) per run, from concurrent streamable-HTTP clients (SDK v2, 2026-07-28, bearer token) in one process, through a plain round-robin HTTP balancer (\`bench/_balancer.mjs\`, its own process, keep-alive connections to the replicas, no stickiness) in front of N \`mcpvm serve --http\` processes sharing one config home. ${cpus().length} cores; load average at start ${startLoad} (other work shares these cores: compare rows within this run). ${ROUNDS} interleaved rounds; the slower round is shown.`,
      "",
      table(
        ["replicas", "clients", "calls", "wrong or lost", "throughput", "vs 1 replica, 10 clients", "p50", "p95", "gateway CPU per call (all replicas)", "balancer CPU per call", "clients' CPU per call", "requests per replica (with connect and warm-up)", "load avg (1 min)"],
        rows.map(({ n, clients, shown }) => [
          String(n),
          String(clients),
          String(shown.calls),
          String(shown.wrong + shown.failed + (Math.round(TOTAL_CALLS / clients) * clients - shown.calls - shown.failed)),
          `${shown.throughput.toFixed(0)} calls/s`,
          `${(shown.throughput / one10).toFixed(2)}×`,
          fmt(shown.p50),
          fmt(shown.p95),
          fmt(shown.gatewayCpuPerCallUs / 1000),
          fmt(shown.cpuPerCallUs[0].self / 1000),
          fmt(shown.clientCpuPerCallUs / 1000),
          shown.perReplica.join(" / "),
          shown.load1,
        ]),
      ),
      ...rows.flatMap(({ n, clients, runs }) => runs.flatMap((run) => Object.entries(run.errors).map(([message, count]) => `- ${n} replica(s), ${clients} clients: ${count} call(s) failed: ${message}`))),
      "",
      `RSS per replica: ${rssStarted.map(mb).join(", ")} after start; ${rssAfter.map(mb).join(", ")} after every run (replica 1 served all four cases, replicas 2 and 3 the 3-replica ones).`,
      "",
      "On 2 cores the replicas, the balancer, the upstream servers and the clients share the same two CPUs, so more replicas cannot add throughput here: the run shows that nothing is lost or crossed between replicas and what each layer costs; on more cores (or more machines, as on Kubernetes) throughput grows with replicas while a replica's CPU per call stays as measured.",
    ].join("\n");
    return { title: "Gateway replicas behind a round-robin balancer", markdown, data: { totalCalls: TOTAL_CALLS, rounds: ROUNDS, rows, rss: { started: rssStarted, after: rssAfter }, startLoad } };
  } finally {
    await balancer?.close();
    await Promise.all(replicas.map((r) => r.close()));
    await rm(home.dir, { recursive: true, force: true });
  }
}
