// Shared by bench/gateway.mjs, bench/replicas.mjs and bench/_gw-profile.mjs (files starting with _ are
// not benchmarks): a config home with approved upstream servers and a toolset, `mcpvm serve --http`
// as its own process, and N concurrent HTTP clients making direct tool calls.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpvmHost } from "../dist/src/host/index.js";
import { ToolsetStore } from "../dist/src/gateway/index.js";
import { summarize, time } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..");
export const FIXTURE = join(ROOT, "tests", "fixtures", "servers", "fixture-server.mjs");
export const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
export const MCPVM = join(ROOT, "bin", "mcpvm.js");
export const NULL_PROXY = join(here, "_null-proxy.mjs");
/** Console logs at warn (each call is still logged to the per-run log file, as in real use). */
export const SERVE_ARGS = ["serve", "--toolset", "bench", "--log-level", "warn"];

/** The two upstreams the load runs use: the minimal fixture (echo {text}) and server-everything (echo {message}). */
export const UPSTREAMS = {
  fixture: { config: { command: process.execPath, args: [FIXTURE] }, tool: "echo", args: (text) => ({ text }), text: (r) => r },
  everything: { config: { command: process.execPath, args: [EVERYTHING, "stdio"] }, tool: "echo", args: (message) => ({ message }), text: (r) => `Echo: ${r}` },
};

/** A config home with `servers` approved and a toolset "bench" of the given tool refs (server.tool). */
export async function makeHome(servers, toolRefs) {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-bench-gw-"));
  // The gateway requires a bearer token (as in real use: the token check is part of every call's cost).
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir, MCPVM_GATEWAY_TOKEN: BENCH_TOKEN };
  const config = { plugins: { mcp: { enabled: true } }, mcpServers: servers };
  await writeFile(join(dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  await host.plugins.approve("mcp");
  const service = await host.requireMcp();
  for (const name of Object.keys(servers)) await service.approve(name);
  await host.close();
  await new ToolsetStore(join(dir, "toolsets.json")).save({ name: "bench", tools: toolRefs });
  return { dir, env };
}

/** A child that serves streamable HTTP and prints {"url"} on stdout (the fixture, the null proxy); it exits when its stdin ends. */
export async function startUrlServer(args, extraEnv) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...extraEnv }, stdio: ["pipe", "pipe", "ignore"] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before printing its URL`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { url: new URL(JSON.parse(line).url), pid: child.pid, close: () => (child.stdin.end(), exited) };
}

/** `mcpvm serve --http` as its own process, as people run it; resolves once it prints its URL. */
export async function startHttpGateway(env, { nodeArgs = [], port = 0, extra = [] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, MCPVM, ...SERVE_ARGS, "--http", `127.0.0.1:${port}`, ...extra], { env, stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match !== null) resolve(new URL(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`mcpvm serve --http exited (${code}) before listening`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { url, pid: child.pid, close: () => (child.kill("SIGTERM"), exited) };
}

/** The resident set of a process, in bytes. */
export function rssOf(pid) {
  return Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) * 1024;
}

/** CPU time (user + system, ms) of a process and of all its descendants, from /proc (Linux; NaN elsewhere). */
export function cpuOfTree(pid) {
  try {
    const stats = new Map();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // Fields after the command (which may hold spaces) in parentheses: state ppid … utime(14) stime(15).
        const text = readFileSync(`/proc/${entry}/stat`, "utf8");
        const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
        stats.set(Number(entry), { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) });
      } catch {
        // the process ended meanwhile
      }
    }
    let ticks = 0;
    const queue = [pid];
    while (queue.length > 0) {
      const current = queue.pop();
      ticks += stats.get(current)?.ticks ?? 0;
      for (const [child, s] of stats) if (s.ppid === current) queue.push(child);
    }
    const ms = (t) => (t * 1000) / CLOCK_TICKS;
    const self = stats.get(pid)?.ticks ?? NaN;
    return { self: ms(self), descendants: ms(ticks - self) };
  } catch {
    return { self: NaN, descendants: NaN };
  }
}
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** SDK v2 client. `modern` negotiates the 2026-07-28 revision; otherwise the 2025 handshake today's editors use. */
export async function connect(transport, modern = false) {
  const client = new Client({ name: "bench", version: "1" }, modern ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(transport);
  return client;
}

export const BENCH_TOKEN = randomBytes(24).toString("base64url");
export const httpClient = (url, modern) => connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${BENCH_TOKEN}` } } }), modern);
export const textOf = (result) => (result.content?.[0]?.type === "text" ? result.content[0].text : "");

/**
 * `clients` concurrent HTTP clients each making `calls` sequential direct calls of `tool`; every
 * answer is checked against what that client sent (wrong = lost or crossed). `modern`: 2026-07-28.
 */
export async function load(url, { clients, calls, tool, upstream, modern = true, warmup = 5, pids = [] }) {
  const connected = await Promise.all(Array.from({ length: clients }, () => httpClient(url, modern)));
  // Warm-up of all clients at once: one after the other, the first ones' connections would sit idle past
  // the server's keep-alive timeout (5 s) and race its close on their first call.
  await Promise.all(connected.map(async (client) => {
    for (let i = 0; i < warmup; i += 1) await client.callTool({ name: tool, arguments: upstream.args("warm") });
  }));
  const latencies = [];
  let wrong = 0;
  let failed = 0;
  const errors = new Map();
  const started = process.hrtime.bigint();
  const cpuBefore = pids.map(cpuOfTree);
  const ownBefore = process.cpuUsage();
  await Promise.all(
    connected.map(async (client, c) => {
      for (let i = 0; i < calls; i += 1) {
        const text = `c${c}-${i}`;
        let got = "";
        try {
          latencies.push(await time(async () => (got = textOf(await client.callTool({ name: tool, arguments: upstream.args(text) })))));
        } catch (error) {
          failed += 1;
          errors.set(String(error?.message ?? error).slice(0, 200), (errors.get(String(error?.message ?? error).slice(0, 200)) ?? 0) + 1);
          continue;
        }
        if (got !== upstream.text(text)) wrong += 1;
      }
    }),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const own = process.cpuUsage(ownBefore);
  // CPU per call (µs) of each watched process tree (the gateway with its upstream servers, …) and of the clients' process.
  const perCall = (ms) => (ms * 1000) / latencies.length;
  const cpuPerCallUs = pids.map((pid, i) => {
    const after = cpuOfTree(pid);
    return { self: perCall(after.self - cpuBefore[i].self), descendants: perCall(after.descendants - cpuBefore[i].descendants) };
  });
  const clientCpuPerCallUs = (own.user + own.system) / latencies.length;
  await Promise.all(connected.map((c) => c.close()));
  return { calls: latencies.length, wrong, failed, errors: Object.fromEntries(errors), elapsedMs, throughput: (latencies.length / elapsedMs) * 1000, cpuPerCallUs, clientCpuPerCallUs, ...summarize(latencies) };
}
