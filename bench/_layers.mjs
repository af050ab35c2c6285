// Profiling aid: CPU µs per echo call at each layer of the guest→MCP path, in one process.
//   node bench/_layers.mjs [calls]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const n = Number(process.argv[2] ?? 1000);
const dir = await mkdtemp(join(tmpdir(), "mcpvm-layers-"));
const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
const server = { command: process.execPath, args: [EVERYTHING, "stdio"] };
await writeFile(join(dir, "config.json"), JSON.stringify({ engine: "quickjs", plugins: { mcp: { enabled: true } }, mcpServers: { s: server } }));
let host = await McpvmHost.open({ env });
await host.plugins.approve("mcp");
await (await host.requireMcp()).approve("s");
await host.close();
host = await McpvmHost.open({ env });
const client = new Client({ name: "b", version: "1" });
await client.connect(new StdioClientTransport({ ...server, stderr: "ignore" }));
const limits = { toolCalls: 1_000_000, wallMs: 600_000 };
await host.run(`require("host:mcp-s").echo({message:"x"})`, { limits });
const service = await host.requireMcp();
const loaded = await host.hostModules();
const lazy = loaded.modules["mcp-s"];
const module = await lazy.load({ signal: new AbortController().signal, deadline: Date.now() + 600_000 });
await new Promise((r) => setTimeout(r, 2100));

const shared = new AbortController().signal;
const layers = {
  "host module fn, one signal for all calls (as in a run)": async (i) => module.echo([{ message: "p" + i }], { module: "mcp-s", fn: "echo", signal: shared, deadline: Date.now() + 600_000 }),
  "direct SDK client": async (i) => client.callTool({ name: "echo", arguments: { message: "p" + i } }),
  "clients.callToolRaw": async (i) => service.clients.callToolRaw("s", "echo", { message: "p" + i }, {}),
  "clients.callTool (+ conversion)": async (i) => service.clients.callTool("s", "echo", { message: "p" + i }, {}),
  "host module fn (+ catalog, validate, approval, redact)": async (i) => module.echo([{ message: "p" + i }], { module: "mcp-s", fn: "echo", signal: new AbortController().signal, deadline: Date.now() + 600_000 }),
};
const cpu = async (fn) => {
  const before = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const u = process.cpuUsage(before);
  return [(u.user + u.system) / 1000, performance.now() - t0];
};
const results = {};
for (let round = 0; round < 3; round++) {
  for (const [name, fn] of Object.entries(layers)) {
    const [c, w] = await cpu(async () => { for (let i = 0; i < n; i++) await fn(i); });
    (results[name] ??= []).push([c, w]);
  }
  const code = (k) => `const s = require("host:mcp-s"); for (let i = 0; i < ${k}; i++) s.echo({ message: "p" + i }); return ${k};`;
  const [c0, w0] = await cpu(async () => host.run(code(0), { limits }));
  const [c1, w1] = await cpu(async () => host.run(code(n), { limits }));
  (results["guest loop (- empty run)"] ??= []).push([c1 - c0, w1 - w0]);
}
console.log("listeners left on the shared signal:", (await import("node:events")).getEventListeners(shared, "abort").length);
for (const [name, xs] of Object.entries(results)) {
  const med = (k) => xs.map((x) => x[k]).sort((a, b) => a - b)[1];
  console.log(`${name.padEnd(58)} cpu ${((med(0) / n) * 1000).toFixed(0).padStart(5)} µs  wall ${((med(1) / n) * 1000).toFixed(0).padStart(5)} µs`);
}
await client.close();
await host.close();
await rm(dir, { recursive: true, force: true });
