// Profiling aid (not a benchmark): N sequential guest echo calls on one server, for --cpu-prof.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/_profile-calls.mjs [calls] [server: everything|fixture] [engine: quickjs|quickjs-inline] [runs]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpvmHost } from "../dist/src/host/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const n = Number(process.argv[2] ?? 2000);
const which = process.argv[3] ?? "everything";
const engine = process.argv[4] ?? "quickjs";
const runs = Number(process.argv[5] ?? 1);
const server =
  which === "fixture"
    ? { command: process.execPath, args: [join(ROOT, "tests", "fixtures", "servers", "fixture-server.mjs")], confirm: "never" }
    : { command: process.execPath, args: [join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "stdio"] };
const tool = which === "fixture" ? "echo({ text: 'p' + i })" : "echo({ message: 'p' + i })";
const dir = await mkdtemp(join(tmpdir(), "mcpvm-prof-"));
const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
await writeFile(join(dir, "config.json"), JSON.stringify({ engine, plugins: { mcp: { enabled: true } }, mcpServers: { s: server } }));
let host = await McpvmHost.open({ env });
await host.plugins.approve("mcp");
await (await host.requireMcp()).approve("s");
await host.close();
host = await McpvmHost.open({ env });
const code = (k) => `const s = require("host:mcp-s"); for (let i = 0; i < ${k}; i++) s.${tool}; return ${k};`;
const limits = { toolCalls: 1_000_000, wallMs: 600_000 };
await host.run(code(50), { limits });
// Past the approval re-check's racy window (RACY_WINDOW_MS), as in any real session.
await new Promise((resolve) => setTimeout(resolve, 2_100));
for (let k = 0; k < runs; k++) {
  const t0 = performance.now();
  const r = await host.run(code(n), { limits });
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  process.stderr.write(`[${engine}] ${n} calls in ${ms.toFixed(1)} ms: ${((ms / n) * 1000).toFixed(0)} µs per call\n`);
}
await host.close();
await rm(dir, { recursive: true, force: true });
