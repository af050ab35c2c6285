// The sandbox's share of (c) in bench/mcp.mjs (files starting with _ are not benchmarks): a trivial run
// (`return 1 + 1`) on the default engine (quickjs, shared mode) with what a host with 20 configured
// servers hands it (20 lazy `host:mcp-*` modules with their labels and the `tools` global's table)
// against a host with the mcp plugin on and no server, interleaved. Prints p50 wall and the mean CPU
// of the main thread and of the other threads (/proc, per task). `--dist <dir>` runs another build's
// dist/ (an A/B against a checkout of an earlier commit): a build before the `tools` global became
// RunRequest.toolsGlobal gets the prelude it used instead.
// `node bench/_startup-engine.mjs [rounds] [--dist <dir>]`
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./_mcp-common.mjs";

const at = process.argv.indexOf("--dist");
const dist = at === -1 ? join(ROOT, "dist") : join(process.argv[at + 1], "dist");
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const rounds = Number(process.argv[2] ?? 300);
const { createEngine } = await load("src/sandbox/select.js");
const { mcpModuleTable } = await load("src/mcp/service/module-table.js");
let tools;
try {
  const { toolsGlobalTable } = await load("src/mcp/service/tools-table.js");
  tools = (names) => ({ toolsGlobal: toolsGlobalTable(names) });
} catch {
  const { toolsGlobalPrelude } = await load("src/mcp/service/prelude.js");
  tools = (names) => ({ prelude: toolsGlobalPrelude(names) });
}
const names = Array.from({ length: 20 }, (_, i) => `server-${String(i + 1).padStart(2, "0")}`);
const variants = {
  many: { modules: mcpModuleTable(Object.fromEntries(names.map((name) => [name, {}])), async () => ({})), ...tools(names) },
  none: { modules: mcpModuleTable({}, async () => ({})), ...tools([]) },
};
const tasks = () => new Map(readdirSync("/proc/self/task").map((task) => [task, Number(readFileSync(`/proc/self/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6]));
const { engine } = await createEngine("quickjs");
const samples = { many: { wall: [], main: [], other: [] }, none: { wall: [], main: [], other: [] } };
for (let round = -20; round < rounds; round += 1) {
  const order = round % 2 === 0 ? ["many", "none"] : ["none", "many"];
  for (const name of order) {
    const before = tasks();
    const start = performance.now();
    const result = await engine.run({ code: "return 1 + 1;", ...variants[name] });
    const wall = performance.now() - start;
    const after = tasks();
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    if (round < 0) continue;
    let main = 0;
    let other = 0;
    for (const [task, ms] of after) {
      const spent = ms - (before.get(task) ?? ms);
      if (Number(task) === process.pid) main += spent;
      else other += spent;
    }
    samples[name].wall.push(wall);
    samples[name].main.push(main);
    samples[name].other.push(other);
  }
}
await engine.dispose();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;
for (const name of ["many", "none"]) {
  const s = samples[name];
  console.log(`${name}: wall p50 ${us(median(s.wall))}  main thread CPU ${us(mean(s.main))}  other threads CPU ${us(mean(s.other))}`);
}
