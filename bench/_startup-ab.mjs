// (c) of bench/mcp.mjs alone (files starting with _ are not benchmarks): open a host, run `return 1 + 1`,
// build the MCP service, close; with 20 configured (approved) servers vs none, interleaved. Prints p50
// wall per phase and CPU (process.cpuUsage: every thread; mainCpu/otherCpu: /proc per task).
// `node bench/_startup-ab.mjs [rounds] [--only=many|none] [--split] [--second] [--tasks]`: --split times
// the engine and the plugins' load apart from the run; --second runs the script twice (the second run's
// main-thread CPU); --tasks prints each thread's mean CPU per round. /proc's per-task CPU moves at
// scheduler events, so a phase of well under a millisecond reads 0 in most rounds: compare means over
// many rounds, or whole rounds, not one phase's p50.
import { readdirSync, readFileSync } from "node:fs";
import { McpvmHost } from "../dist/src/host/index.js";
import { FIXTURE, makeHome, mustSucceed } from "./_mcp-common.mjs";
import { percentile } from "./_stats.mjs";

const rounds = Number(process.argv[2] ?? 60);
const servers = {};
for (let i = 1; i <= 20; i += 1) servers[`server-${String(i).padStart(2, "0")}`] = { command: process.execPath, args: [FIXTURE] };
const many = await makeHome(servers);
const none = await makeHome({});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const phases = ["openCpu", "mcpCpu", "closeCpu", "open", "engine", "modules", "modulesCpu", "runCpu", "run2Cpu", "run", "mcp", "close", "total", "cpu", "mainCpu", "otherCpu"];
const samples = { many: Object.fromEntries(phases.map((p) => [p, []])), none: Object.fromEntries(phases.map((p) => [p, []])) };
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const second = process.argv.includes("--second");
const split = process.argv.includes("--split");
const mainCpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
const perTask = { many: new Map(), none: new Map() };
const threadCpu = () => {
  let main = 0;
  let other = 0;
  const tasks = new Map();
  for (const task of readdirSync("/proc/self/task")) {
    const ns = Number(readFileSync(`/proc/self/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    tasks.set(task, ns);
    if (Number(task) === process.pid) main += ns;
    else other += ns;
  }
  return { main, other, tasks };
};
const once = async (home, into) => {
  let tE = 0;
  let tM = 0;
  let cE = 0;
  let cM = 0;
  const th0 = threadCpu();
  const c0 = cpu();
  const m0 = mainCpu();
  const t0 = performance.now();
  const host = await McpvmHost.open({ env: home.env });
  const t1 = performance.now();
  const m1 = mainCpu();
  if (split) {
    await host.engine();
    tE = performance.now();
    cE = mainCpu();
    await host.hostModules();
    tM = performance.now();
    cM = mainCpu();
  }
  mustSucceed(await host.run("return 1 + 1;"));
  const t2 = performance.now();
  const c2 = mainCpu();
  if (second) {
    mustSucceed(await host.run("return 1 + 1;"));
    into?.run2Cpu.push(mainCpu() - c2);
  }
  const m2 = mainCpu();
  await host.requireMcp();
  const t3 = performance.now();
  const m3 = mainCpu();
  await host.close();
  const t4 = performance.now();
  const m4 = mainCpu();
  const c1 = cpu();
  const th1 = threadCpu();
  if (into === undefined) return;
  const sums = into === samples.many ? perTask.many : perTask.none;
  for (const [task, ns] of th1.tasks) sums.set(task, (sums.get(task) ?? 0) + ns - (th0.tasks.get(task) ?? ns));
  into.mainCpu.push(th1.main - th0.main);
  into.otherCpu.push(th1.other - th0.other);
  if (split) {
    into.engine.push(tE - t1);
    into.modules.push(tM - tE);
    into.modulesCpu.push(cM - cE);
    into.runCpu.push(c2 - cM);
  }
  into.openCpu.push(m1 - m0);
  into.mcpCpu.push(m3 - m2);
  into.closeCpu.push(m4 - m3);
  into.open.push(t1 - t0);
  into.run.push(t2 - t1);
  into.mcp.push(t3 - t2);
  into.close.push(t4 - t3);
  into.total.push(t4 - t0);
  into.cpu.push(c1 - c0);
};
for (let i = 0; i < 3; i += 1) {
  await once(none);
  await once(many);
}
for (let round = 0; round < rounds; round += 1) {
  const steps = [() => once(many, samples.many), () => once(none, samples.none)].filter((_, i) => only === undefined || only === ["many", "none"][i]);
  if (round % 2 === 1) steps.reverse();
  for (const step of steps) await step();
}
await many.cleanup();
await none.cleanup();
const row = (name) => phases.map((p) => `${p} ${percentile(samples[name][p], 50).toFixed(3)}`).join("  ");
console.log(`many: ${row("many")}`);
console.log(`none: ${row("none")}`);
if (only === undefined) console.log(`ratio total ${(percentile(samples.many.total, 50) / percentile(samples.none.total, 50)).toFixed(3)}  cpu ${(percentile(samples.many.cpu, 50) / percentile(samples.none.cpu, 50)).toFixed(3)}`);
if (process.argv.includes("--tasks")) {
  for (const name of ["many", "none"]) console.log(name, [...perTask[name]].map(([t, ms]) => `${t}:${(ms / rounds).toFixed(3)}`).join(" "));
}
