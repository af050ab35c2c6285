// Probe (files starting with _ are not benchmarks): where a $batch of 100 calls to a 5 ms tool spends its time.
import { McpvmHost } from "../dist/src/host/index.js";
import { readFileSync } from "node:fs";
import { childPids, FIXTURE, makeHome, mustSucceed, pastRacyWindow } from "./_mcp-common.mjs";

/** utime + stime of a process, in ms (Linux clock ticks of 10 ms). */
function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const rounds = Number(process.argv[2] ?? 30);
const home = await makeHome({ slow: { command: process.execPath, args: [FIXTURE, "--latency", "5"], confirm: "never" } });
const host = await McpvmHost.open({ env: home.env });
const args = `Array.from({ length: 100 }, (_, i) => ({ text: "item " + i }))`;
const code = `const r = require("host:mcp-slow").$batch("echo", ${args}); if (!r.every((x) => x.ok)) throw new Error("x"); return r.length;`;
for (let i = 0; i < 5; i++) mustSucceed(await host.run(code));
await pastRacyWindow();
const [server] = childPids();
const server0 = cpuMsOf(server);
const walls = [];
const cpu0 = process.cpuUsage();
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  mustSucceed(await host.run(code));
  walls.push(performance.now() - t);
}
const cpu = process.cpuUsage(cpu0);
const serverMs = (cpuMsOf(server) - server0) / rounds;
walls.sort((a, b) => a - b);
console.log(`p50 ${walls[walls.length >> 1].toFixed(1)} ms, min ${walls[0].toFixed(1)}; host CPU per batch ${((cpu.user + cpu.system) / 1000 / rounds).toFixed(1)} ms, server CPU per batch ${serverMs.toFixed(1)} ms`);
await host.close();
await home.cleanup();
