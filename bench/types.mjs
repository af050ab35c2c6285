// Type generation for real MCP tool listings (issue 3 target: the 26-tool github listing in <= 50 ms).
// Compares, within one run: the generator with an empty cache (what a first connect costs), with a warm
// cache (reconnect / list_changed with unchanged tools), and json-schema-to-typescript called once per
// schema (the design the generator's single batched compile replaced).
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CompiledTypesCache, generateModuleDeclaration } from "../dist/src/mcp/type-generator/index.js";
import { fmt, summarize, table, time, verdict } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const LISTINGS = join(here, "..", "tests", "fixtures", "real-server-tool-listings.json");
const TARGET_MS = 50;
const RUNS = 40;
const WARMUP = 5;

function toolsOf(listing) {
  return listing.map((tool) => ({
    jsName: tool.name.replace(/[^A-Za-z0-9_$]/g, "_"),
    originalName: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  }));
}

/**
 * Runs the cases interleaved (case order rotates every round) so a burst of load from other
 * processes hits all of them alike; records wall time and this process's CPU time per call.
 */
async function sampleInterleaved(cases) {
  const entries = Object.entries(cases);
  for (let i = 0; i < WARMUP; i += 1) for (const [, fn] of entries) await fn();
  const wall = Object.fromEntries(entries.map(([name]) => [name, []]));
  const cpu = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let round = 0; round < RUNS; round += 1) {
    for (let k = 0; k < entries.length; k += 1) {
      const [name, fn] = entries[(round + k) % entries.length];
      const cpuBefore = process.cpuUsage();
      wall[name].push(await time(fn));
      const used = process.cpuUsage(cpuBefore);
      cpu[name].push((used.user + used.system) / 1000);
    }
  }
  return Object.fromEntries(entries.map(([name]) => [name, { wall: summarize(wall[name]), cpu: summarize(cpu[name]) }]));
}

const PER_SCHEMA_OPTIONS = { format: false, bannerComment: "", additionalProperties: false, ignoreMinAndMaxItems: true, $refOptions: { resolve: { external: false } } };

async function compileEachSchema(tools) {
  const { compile } = await import("json-schema-to-typescript");
  for (const tool of tools) {
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      if (schema !== undefined) await compile(structuredClone(schema), `${tool.jsName}Schema`, PER_SCHEMA_OPTIONS);
    }
  }
}

export default async function () {
  const listings = JSON.parse(readFileSync(LISTINGS, "utf8"));
  const servers = Object.entries(listings).map(([name, listing]) => ({ name, tools: toolsOf(listing) }));
  const github = servers.find((server) => server.name === "github");
  const all = async (cache) => {
    for (const server of servers) await generateModuleDeclaration(server.name, server.tools, { cache: cache() });
  };

  const coldFirst = await time(() => generateModuleDeclaration(github.name, github.tools, { cache: new CompiledTypesCache() }));
  const warm = new CompiledTypesCache();
  const everyTool = servers.flatMap((server) => server.tools);
  const results = await sampleInterleaved({
    githubUncached: () => generateModuleDeclaration(github.name, github.tools, { cache: new CompiledTypesCache() }),
    githubCached: () => generateModuleDeclaration(github.name, github.tools, { cache: warm }),
    allUncached: () => all(() => new CompiledTypesCache()),
    githubPerSchema: () => compileEachSchema(github.tools),
    allPerSchema: () => compileEachSchema(everyTool),
  });

  const github50 = results.githubUncached.wall.p50;
  const met = github50 <= TARGET_MS;
  const toolCount = everyTool.length;
  const row = (label, result) => [label, fmt(result.wall.p50), fmt(result.wall.p95), fmt(result.wall.min), fmt(result.cpu.p50)];
  const rows = [
    row("github (26 tools), empty cache", results.githubUncached),
    row("github, warm cache", results.githubCached),
    row(`all five servers (${toolCount} tools), empty cache`, results.allUncached),
    row("github, one compile() per schema (not used)", results.githubPerSchema),
    row("all five, one compile() per schema (not used)", results.allPerSchema),
  ];
  const load = loadavg()[0];
  const markdown = [
    `Target: github listing in <= ${TARGET_MS} ms (p50, empty cache): ${verdict(met)} (p50 ${fmt(github50)}, p95 ${fmt(results.githubUncached.wall.p95)}).`,
    `First call in a fresh process (loading json-schema-to-typescript included): ${fmt(coldFirst)}. Load average during the run: ${load.toFixed(1)} on ${cpus().length} CPUs (wall times stretch with it; CPU time much less).`,
    "",
    table(["case", "wall p50", "wall p95", "wall min", "CPU p50"], rows),
    "",
    `One batched compile vs one compile per schema (CPU p50): github ${(results.githubPerSchema.cpu.p50 / results.githubUncached.cpu.p50).toFixed(2)}x, all five ${(results.allPerSchema.cpu.p50 / results.allUncached.cpu.p50).toFixed(2)}x as fast. ${RUNS} interleaved rounds after ${WARMUP} warm-up rounds.`,
  ].join("\n");
  return {
    title: "Type generation (json-schema-to-typescript, format: false)",
    markdown,
    data: { targetMs: TARGET_MS, met, coldFirstMs: coldFirst, loadAverage: load, runs: RUNS, ...results },
  };
}
