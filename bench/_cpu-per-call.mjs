// Profiling aid: CPU time of this process (all its threads: main + sandbox worker) per MCP echo call,
// a guest loop against direct SDK Client.callTool calls on a second process of the same server.
// CPU time, unlike wall time, barely moves with other load on the machine.
//   node bench/_cpu-per-call.mjs [calls] [rounds]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

export async function cpuPerCall(n = 500, rounds = 5) {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-cpu-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const server = { command: process.execPath, args: [EVERYTHING, "stdio"] };
  await writeFile(join(dir, "config.json"), JSON.stringify({ engine: "quickjs", plugins: { mcp: { enabled: true } }, mcpServers: { s: server } }));
  let host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  await (await host.requireMcp()).approve("s");
  await host.close();
  host = await McpvmHost.open({ env });
  const client = new Client({ name: "mcpvm-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...server, stderr: "ignore" }));
  const code = (k) => `const s = require("host:mcp-s"); for (let i = 0; i < ${k}; i++) s.echo({ message: "p" + i }); return ${k};`;
  const limits = { toolCalls: 1_000_000, wallMs: 600_000 };
  const cpu = async (fn) => {
    const before = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const used = process.cpuUsage(before);
    return { cpu: (used.user + used.system) / 1000, wall: performance.now() - t0 };
  };
  const guest = async (k) => {
    const r = await host.run(code(k), { limits });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  };
  const direct = async () => {
    for (let i = 0; i < n; i++) await client.callTool({ name: "echo", arguments: { message: "p" + i } });
  };
  try {
    // Past the approvals file's racy window (2 s after it was written), as in steady use.
    await new Promise((r) => setTimeout(r, 2100));
    await guest(n);
    await direct();
    const g = [];
    const e = [];
    const d = [];
    for (let round = 0; round < rounds; round++) {
      e.push(await cpu(() => guest(0)));
      g.push(await cpu(() => guest(n)));
      d.push(await cpu(direct));
    }
    const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const guestCpu = ((med(g.map((x) => x.cpu)) - med(e.map((x) => x.cpu))) / n) * 1000;
    const directCpu = (med(d.map((x) => x.cpu)) / n) * 1000;
    const guestWall = ((med(g.map((x) => x.wall)) - med(e.map((x) => x.wall))) / n) * 1000;
    const directWall = (med(d.map((x) => x.wall)) / n) * 1000;
    return { n, rounds, guestCpuUs: guestCpu, directCpuUs: directCpu, guestWallUs: guestWall, directWallUs: directWall };
  } finally {
    await client.close();
    await host.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await cpuPerCall(Number(process.argv[2] ?? 500), Number(process.argv[3] ?? 5));
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
