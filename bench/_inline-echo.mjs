// 300 sequential guest echo calls on server-everything: worker engine vs in-thread engine vs direct
// SDK calls, interleaved rounds, wall and this process's CPU (CPU moves far less with machine load).
// Run after `npx tsc -p tsconfig.build.json`: node bench/_inline-echo.mjs [calls=300] [rounds=8] [warm-up runs=10]
import { loadavg } from "node:os";
import { echoCases, median, openEchoHost as open, timeRounds } from "./_echo-host.mjs";

const N = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 8);

const hosts = { quickjs: await open("quickjs", "mcpvm-inline-echo-"), "quickjs-inline": await open("quickjs-inline", "mcpvm-inline-echo-") };
const { client, cases } = await echoCases(hosts, N);
const WARMUP = Number(process.argv[4] ?? 10);
for (const fn of Object.values(cases)) for (let i = 0; i < WARMUP; i++) await fn();
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], cpu: [] }]));
const load = loadavg()[0];
await timeRounds(cases, ROUNDS, (_, row) => {
  for (const [key, { wallMs, cpuMs }] of Object.entries(row)) {
    samples[key].wall.push(wallMs);
    samples[key].cpu.push(cpuMs);
  }
});
const out = {};
for (const [key, s] of Object.entries(samples)) out[key] = { wallMs: median(s.wall), cpuMs: median(s.cpu) };
for (const key of Object.keys(hosts)) out[key].ratio = out[key].wallMs / out.direct.wallMs;
console.log(JSON.stringify({ calls: N, rounds: ROUNDS, loadAtStart: load, ...out }, null, 1));
await client.close();
for (const { host, cleanup } of Object.values(hosts)) {
  await host.close();
  await cleanup();
}
