// The Sandbox engines section's tables from bench/peers' saved rounds (Node 22, beside isolated-vm): they
// are run apart (bench/peers/_image-rounds.mjs, _shared-rounds.mjs) and only read here.
import { readFileSync } from "node:fs";
import { fmt, table } from "./_stats.mjs";

const ms = (value) => fmt(value);

/** bench/peers/_image-rounds.mjs's last result (Node 22, beside isolated-vm), if it has been run. */
export function imageRounds() {
  let saved;
  try {
    saved = JSON.parse(readFileSync(new URL("peers/image-rounds.json", import.meta.url), "utf8"));
  } catch {
    return [];
  }
  const rows = saved.rows.map((row) => [row.name, ms(row.coldMs), ms(row.freshMs)]);
  return [
    "",
    `**Sandbox images beside the peers** (bench/peers/_image-rounds.mjs: ${saved.rounds} rounds with every engine in each, median of the rounds' p50; ` +
      `${saved.date}, Node ${saved.node}, load average ${saved.load.map((l) => l.toFixed(2)).join(" before, ")} after). The cases of "Beside the peers": ` +
      "cold = a new sandbox, `return 1`, disposed (for mcpvm a new engine; engines share warm workers or instances); fresh = a new context per run, back to back, in an engine that is up.",
    "",
    table(["median of per-round p50", "cold: new sandbox + run + dispose", "fresh context per run, back to back"], rows),
  ];
}

/** bench/peers/_shared-rounds.mjs's last result: the worker engine's two modes beside isolated-vm (Node 22), if run. */
export function sharedRounds() {
  let saved;
  try {
    saved = JSON.parse(readFileSync(new URL("peers/shared-rounds.json", import.meta.url), "utf8"));
  } catch {
    return [];
  }
  const cell = (row, key, format) => (row?.[key] === undefined ? "" : format(row[key].median));
  const mb = (value) => `${value.toFixed(1)} MB`;
  const labels = { mcpvm: "mcpvm (worker engine, several runs per thread: the default)", "mcpvm-thread": "mcpvm-thread (one run per thread: `mcpvm run`'s mode)" };
  const rows = ["mcpvm", "mcpvm-thread", "isolated-vm"].map((name) => {
    const row = saved.summary[name];
    return [
      labels[name] ?? name,
      cell(row, "cold", ms),
      cell(row, "fresh", ms),
      cell(row, "hostCallUs", (value) => `${value.toFixed(1)} µs`),
      cell(row, "memoryMb", mb),
      row?.warmedMemoryMb === undefined ? "" : `${mb(row.warmedMemoryMb.median)} (${mb(row.oneTimeMb.median)})`,
    ];
  });
  return [
    "",
    `**The worker engine's two modes beside isolated-vm** (bench/peers/_shared-rounds.mjs: ${saved.rounds} rounds, each engine in each, median of the rounds' p50; ` +
      `${saved.at}, Node ${saved.node}, load average ${saved.loadBefore.toFixed(2)} before, ${saved.loadAfter.toFixed(2)} after). The cases and memory ` +
      'measures of "Beside the peers" (memory: bench/peers/memory.mjs, ten sandboxes alive, each holding a 30,000-element array and waiting in a host call).',
    "",
    table(
      ["median of per-round p50", "cold: new sandbox + run + dispose", "fresh context per run", "host call round trip", "memory per live sandbox", "the same once loaded and warmed (one-time load)"],
      rows,
    ),
  ];
}
