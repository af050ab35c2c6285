// A/B probe (wave 21): the stdio face with its fast lane, the same gateway with MCPVM_GATEWAY_FAST_LANE=0,
// the minimal SDK proxy (bench/_null-proxy.mjs stdio) and the fixture direct, one SDK v2 client (2025
// handshake) each, echo calls round-robin in alternating order. CPU per call of the process in front
// (its upstream not counted) from /proc, and wall p50. Usage: node bench/_stdio-lane-ab.mjs [calls] [latencyMs]
import { cpus, loadavg } from "node:os";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connect, cpuOfTree, FIXTURE, makeHome, MCPVM, NULL_PROXY, SERVE_ARGS } from "./_gw-load.mjs";

const CALLS = Number(process.argv[2] ?? 1000);
const LATENCY = Number(process.argv[3] ?? 0);
const fixtureEnv = { MCPVM_FIXTURE_ARGS: LATENCY > 0 ? `--latency ${LATENCY}` : "" };
const home = await makeHome({ s: { command: process.execPath, args: [FIXTURE], env: fixtureEnv } }, ["s.echo"]);
const open = (args, env) => {
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { ...home.env, ...env }, stderr: "ignore" });
  return connect(transport).then((client) => ({ client, transport }));
};
const fronts = {
  lane: { ...(await open([MCPVM, ...SERVE_ARGS], {})), tool: "s_echo" },
  "lane off": { ...(await open([MCPVM, ...SERVE_ARGS], { MCPVM_GATEWAY_FAST_LANE: "0" })), tool: "s_echo" },
  "minimal SDK proxy": { ...(await open([NULL_PROXY, "stdio", process.execPath, FIXTURE], fixtureEnv)), tool: "echo" },
  direct: { ...(await open([FIXTURE], fixtureEnv)), tool: "echo" },
};
const names = Object.keys(fronts);
const call = (name) => fronts[name].client.callTool({ name: fronts[name].tool, arguments: { text: "x" } });
for (let i = 0; i < 50; i++) for (const name of names) await call(name);
const cpu = (name) => cpuOfTree(fronts[name].transport.pid).self;
const before = Object.fromEntries(names.map((n) => [n, cpu(n)]));
const wall = Object.fromEntries(names.map((n) => [n, []]));
const startLoad = loadavg()[0].toFixed(2);
for (let i = 0; i < CALLS; i++) {
  const order = i % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const t = process.hrtime.bigint();
    await call(name);
    wall[name].push(Number(process.hrtime.bigint() - t) / 1000);
  }
}
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${CALLS} calls each, tool latency ${LATENCY} ms, load ${startLoad} -> ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`);
for (const name of names) {
  const perCall = ((cpu(name) - before[name]) * 1000) / CALLS;
  console.log(`${name.padEnd(18)} wall p50 ${p50(wall[name]).toFixed(0)} µs   CPU of the process in front ${name === "direct" ? "(the server itself)" : ""} ${perCall.toFixed(0)} µs/call`);
}
for (const name of names) await fronts[name].client.close();
