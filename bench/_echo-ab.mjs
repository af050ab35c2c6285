// A/B of guest echo calls on server-everything on two builds in one process (issue 15): each build's
// host runs N sequential echo calls per round, beside N direct SDK calls; rounds interleaved, median
// wall and this process's CPU per call (all threads), and each build's ratio to the direct calls.
// Usage: node bench/_echo-ab.mjs <engine> <calls> <rounds> <distA> <distB> (each dist: a built tree).
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { echoCases, median, openEchoHost, timeRounds } from "./_echo-host.mjs";

const [ENGINE, CALLS, ROUNDS, A, B] = process.argv.slice(2);
const N = Number(CALLS);
const hosts = {};
for (const dir of [A, B]) {
  const { McpvmHost } = await import(pathToFileURL(resolve(dir, "src/host/index.js")).href);
  hosts[dir] = await openEchoHost(ENGINE, "mcpvm-echo-ab-", McpvmHost);
}
const { client, cases } = await echoCases(hosts, N);
for (const fn of Object.values(cases)) for (let i = 0; i < 5; i++) await fn();
const load = loadavg()[0];
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], cpu: [] }]));
await timeRounds(cases, Number(ROUNDS), (_, row) => {
  for (const [key, { wallMs, cpuMs }] of Object.entries(row)) {
    samples[key].wall.push(wallMs);
    samples[key].cpu.push(cpuMs);
  }
});
console.log(`${ENGINE}, ${N} calls × ${ROUNDS} rounds, load ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`);
const direct = median(samples.direct.wall);
for (const [key, s] of Object.entries(samples)) {
  const wall = median(s.wall);
  console.log(`${key}: wall ${((wall * 1000) / N).toFixed(0)} µs/call, cpu ${((median(s.cpu) * 1000) / N).toFixed(0)} µs/call, ratio to direct ${(wall / direct).toFixed(2)}`);
}
await client.close();
for (const { host, cleanup } of Object.values(hosts)) {
  await host.close();
  await cleanup();
}
