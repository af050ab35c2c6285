// Profiling aid (engine "direct": the SDK client alone, the baseline)
// Profiling aid (not a benchmark): a CPU profile of N sequential guest echo calls on server-everything,
// taken after warm-up runs (node:inspector, this thread only — the whole call path for quickjs-inline),
// summarised by self time per file/function and inclusive time of our own functions, per call.
//   node bench/_percall-profile.mjs [calls=1000] [engine=quickjs-inline] [warm-up runs=12] [profiled runs=4] [out.cpuprofile]
import { writeFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";
import { placeOf } from "./_cpuprofile.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const [N, ENGINE, WARM, RUNS, OUT] = [Number(process.argv[2] ?? 1000), process.argv[3] ?? "quickjs-inline", Number(process.argv[4] ?? 12), Number(process.argv[5] ?? 4), process.argv[6]];
// MCPVM_PROFILE_SERVER=raw: the lean wire-level echo server (tests/fixtures/servers/raw-echo-server.mjs), so the profile is ours, not the server's wake-ups.
const RAW = process.env.MCPVM_PROFILE_SERVER === "raw";
const SERVER_ARGS = RAW ? [join(ROOT, "tests", "fixtures", "servers", "raw-echo-server.mjs")] : [EVERYTHING, "stdio"];
const ARG = RAW ? "text" : "message";
const INTERVAL = Number(process.env.MCPVM_PROFILE_INTERVAL_US ?? 100);
const dir = await mkdtemp(join(tmpdir(), "mcpvm-percall-prof-"));
const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
await writeFile(join(dir, "config.json"), JSON.stringify({ engine: ENGINE === "module" ? "quickjs" : ENGINE, plugins: { mcp: { enabled: true } }, mcpServers: { s: { command: process.execPath, args: SERVER_ARGS, ...(RAW ? { confirm: "never" } : {}) } } }));
let host;
let run;
if (ENGINE === "direct") {
  // The baseline: the SDK v2 client on its own connection, same calls.
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, stderr: "ignore" }));
  host = client;
  run = async () => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await client.callTool({ name: "echo", arguments: { [ARG]: `p${i}` } });
    return performance.now() - t0;
  };
} else {
  host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  await (await host.requireMcp()).approve("s");
  await host.close();
  host = await McpvmHost.open({ env });
  const code = `const s = require("host:mcp-s"); for (let i = 0; i < ${N}; i++) s.echo({ ${ARG}: "p" + i }); return ${N};`;
  run = async () => {
    const t0 = performance.now();
    const r = await host.run(code);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return performance.now() - t0;
  };
  if (ENGINE === "module") {
    // The host module function alone (no sandbox): the service's and client manager's share.
    const r = await host.run(code.replace(String(N), "1"));
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const loaded = await host.hostModules();
    const signal = new AbortController().signal;
    const module = await loaded.modules["mcp-s"].load({ signal, deadline: Date.now() + 3_600_000 });
    run = async () => {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) await module.echo([{ [ARG]: `p${i}` }], { module: "mcp-s", fn: "echo", signal, deadline: Date.now() + 600_000 });
      return performance.now() - t0;
    };
  }
}
for (let i = 0; i < WARM; i++) await run();
await new Promise((resolve) => setTimeout(resolve, 2_100)); // past the approvals file's racy window
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: INTERVAL });
await session.post("Profiler.start");
const c0 = process.cpuUsage();
let wall = 0;
for (let i = 0; i < RUNS; i++) wall += await run();
const c = process.cpuUsage(c0);
const { profile } = await session.post("Profiler.stop");
session.disconnect();
if (OUT) writeFileSync(OUT, JSON.stringify(profile));
await host.close();
await rm(dir, { recursive: true, force: true });

const calls = N * RUNS;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const ch of n.children ?? []) parent.set(ch, n.id);
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
const byPlace = new Map();
const byFn = new Map();
const inclusive = new Map();
for (const [id, us] of self) {
  const f = byId.get(id).callFrame;
  const place = placeOf(f) || (f.url === "" && /^(\$|wasm)/.test(f.functionName) ? "wasm" : `(${f.functionName || "native"})`);
  add(byPlace, place, us);
  add(byFn, `${f.functionName || "(anon)"} ${placeOf(f).replace(/^dist\/src\//, "")}:${f.lineNumber + 1}`, us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const cf = byId.get(cur).callFrame;
    const where = placeOf(cf);
    if (!where.startsWith("dist/src/")) continue;
    const key = `${cf.functionName || "(anon)"} ${where.slice(9)}:${cf.lineNumber + 1}`;
    if (!seen.has(key)) {
      add(inclusive, key, us);
      seen.add(key);
    }
  }
}
// Layers of the call path (issue 15): each sample charged by where it ran. Wall-clock samples: a
// system call the thread was switched out in (the pipe write that wakes the server, the approval
// stat) reads longer than its CPU; measure those apart (bench/_inline-callpath-ab.mjs for CPU).
const layerOf = (place, fn) => {
  if (place.startsWith("wasm") || fn.startsWith("wasm-function")) return "guest: QuickJS (wasm)";
  if (/quickjs-wasmfile|quickjs-emscripten/.test(place)) return "guest: asyncify glue";
  if (fn === "(idle)") return "idle (waiting for the server)";
  if (fn === "writeUtf8String") return "system call: write to the server's stdin";
  if (fn === "stat") return "system call: approval re-check stat";
  if (fn === "(garbage collector)") return "GC";
  if (place.startsWith("dist/src/sandbox")) return "sandbox, host side";
  if (place.startsWith("dist/src/mcp/client-manager")) return "client manager";
  if (place.startsWith("dist/src/") || place.includes("cfworker")) return "MCP service (checks, validation, activity)";
  if (/modelcontextprotocol|zod/.test(place)) return "SDK client and zod";
  if (place.startsWith("node:")) return "node internals";
  return "other";
};
const byLayer = new Map();
for (const [id, us] of self) {
  const f = byId.get(id).callFrame;
  add(byLayer, layerOf(placeOf(f), f.functionName), us);
}
const rows = (m, n) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${(us / calls).toFixed(1).padStart(8)} µs/call  ${k}`).join("\n");
console.log(`[${ENGINE}] ${RUNS} runs × ${N} calls: wall ${((wall / calls) * 1000).toFixed(0)} µs/call, cpu ${((c.user + c.system) / calls).toFixed(0)} µs/call (all threads)`);
console.log("\nby layer:\n" + rows(byLayer, 20));
console.log("\nself by place:\n" + rows(byPlace, 25));
console.log("\nself by function:\n" + rows(byFn, 45));
console.log("\ninclusive, ours:\n" + rows(inclusive, 60));
