// A/B of the in-thread engine's MCP call path (issue 15) in alternating processes: each child process
// loads one build, opens a quickjs-inline host on one server (the lean raw echo server, or
// server-everything) and runs rounds of one guest run of N sequential echo calls beside N direct SDK
// Client.callTool calls on a second process of the same server, in alternating order. Per call: wall
// and CPU (this process, all threads) of each side, medians over the rounds; the parent prints each
// build's medians over its processes and the load average.
//   node bench/_inline-callpath-ab.mjs <distA> <distB> [pairs=4] [calls=1000] [rounds=6] [server=raw|everything]
//   (child) node bench/_inline-callpath-ab.mjs --child <dist> <calls> <rounds> <server>
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SERVERS = {
  // Its echo has no readOnlyHint: without "confirm": "never" every call would be confirmed (and audited).
  raw: { args: [join(ROOT, "tests", "fixtures", "servers", "raw-echo-server.mjs")], arg: "text", entry: { confirm: "never" } },
  everything: { args: [join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "stdio"], arg: "message" },
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function child(dist, n, rounds, serverKind) {
  const { McpvmHost } = await import(pathToFileURL(resolve(dist, "src/host/index.js")).href);
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const server = SERVERS[serverKind];
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-callpath-ab-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const config = { engine: "quickjs-inline", plugins: { mcp: { enabled: true } }, mcpServers: { s: { command: process.execPath, args: server.args, ...server.entry } } };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  let host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  await (await host.requireMcp()).approve("s");
  await host.close();
  host = await McpvmHost.open({ env });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: server.args, stderr: "ignore" }));
  const code = `const s = require("host:mcp-s"); for (let i = 0; i < ${n}; i++) s.echo({ ${server.arg}: "p" + i }); return ${n};`;
  const cases = {
    guest: async () => {
      const r = await host.run(code);
      if (!r.ok || r.value !== n) throw new Error(`run failed: ${JSON.stringify(r.error)}`);
    },
    direct: async () => {
      for (let i = 0; i < n; i++) await client.callTool({ name: "echo", arguments: { [server.arg]: `p${i}` } });
    },
  };
  for (let i = 0; i < 4; i++) for (const fn of Object.values(cases)) await fn();
  // Past the approvals file's racy window (written moments ago), which no real session meets.
  await new Promise((r) => setTimeout(r, 2_100));
  const out = { guest: { wall: [], cpu: [] }, direct: { wall: [], cpu: [] } };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ["guest", "direct"] : ["direct", "guest"];
    for (const key of order) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await cases[key]();
      const wall = performance.now() - t0;
      const c = process.cpuUsage(c0);
      out[key].wall.push((wall * 1000) / n);
      out[key].cpu.push((c.user + c.system) / n);
    }
  }
  await client.close();
  await host.close();
  await rm(dir, { recursive: true, force: true });
  const summary = {};
  for (const [key, s] of Object.entries(out)) summary[key] = { wall: median(s.wall), cpu: median(s.cpu) };
  process.stdout.write(JSON.stringify(summary));
}

if (process.argv[2] === "--child") {
  await child(process.argv[3], Number(process.argv[4]), Number(process.argv[5]), process.argv[6]);
} else {
  const [A, B] = process.argv.slice(2, 4);
  const pairs = Number(process.argv[4] ?? 4);
  const n = process.argv[5] ?? "1000";
  const rounds = process.argv[6] ?? "6";
  const serverKind = process.argv[7] ?? "raw";
  const builds = { A, B };
  const results = { A: [], B: [] };
  const load = [loadavg()[0]];
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? ["A", "B"] : ["B", "A"];
    for (const key of order) {
      const text = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", builds[key], n, rounds, serverKind], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
      const r = JSON.parse(text);
      results[key].push(r);
      console.log(`${key} pair ${p}: guest ${r.guest.wall.toFixed(0)} µs wall / ${r.guest.cpu.toFixed(0)} µs cpu; direct ${r.direct.wall.toFixed(0)} / ${r.direct.cpu.toFixed(0)}; ratio ${(r.guest.wall / r.direct.wall).toFixed(2)}`);
    }
    load.push(loadavg()[0]);
  }
  console.log(`\n${serverKind} server, ${n} calls × ${rounds} rounds × ${pairs} processes each; load ${load.map((l) => l.toFixed(1)).join(" ")}`);
  for (const key of ["A", "B"]) {
    const rs = results[key];
    const m = (f) => median(rs.map(f));
    console.log(
      `${key} (${builds[key]}): guest wall ${m((r) => r.guest.wall).toFixed(0)} µs, cpu ${m((r) => r.guest.cpu).toFixed(0)} µs; direct wall ${m((r) => r.direct.wall).toFixed(0)}, cpu ${m((r) => r.direct.cpu).toFixed(0)}; ` +
        `ratio wall ${m((r) => r.guest.wall / r.direct.wall).toFixed(2)}, cpu ${m((r) => r.guest.cpu / r.direct.cpu).toFixed(2)}; added cpu ${m((r) => r.guest.cpu - r.direct.cpu).toFixed(0)} µs`,
    );
  }
}
