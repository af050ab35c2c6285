#!/usr/bin/env node
// Runs every bench/<name>.mjs in its own child process (so RSS figures do not leak between them) and
// writes bench/RESULTS.md and bench/results.json. Usage: npm run bench [-- name ...] (prints only), or
// node bench/run.mjs --update name ... (replaces those sections in RESULTS.md and results.json).
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem, platform, release } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === "--one") {
  const mod = await import(join(here, `${process.argv[3]}.mjs`));
  const section = await mod.default();
  process.stdout.write(`\n@@RESULT@@${JSON.stringify(section)}\n`);
  process.exit(0);
}

// `--update name …`: run only those sections and replace them in RESULTS.md / results.json (the others stay as they were).
const update = process.argv[2] === "--update";
const wanted = process.argv.slice(update ? 3 : 2);
const names = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("_"))
  .map((f) => f.slice(0, -4))
  .filter((n) => wanted.length === 0 || wanted.includes(n))
  .sort();

const unknown = wanted.filter((n) => !names.includes(n));
if (unknown.length > 0) {
  const known = readdirSync(here).filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("_")).map((f) => f.slice(0, -4));
  process.stderr.write(`bench: no section named ${unknown.join(", ")}; the sections are ${known.sort().join(", ")}\n`);
  process.exit(2);
}
if (update && wanted.length === 0) {
  process.stderr.write("bench: --update needs the names of the sections to re-run (npm run bench with no names runs them all)\n");
  process.exit(2);
}

const sections = [];
for (const name of names) {
  process.stderr.write(`bench: ${name} …\n`);
  // Each section records when and at what load it ran, so a partial --update can say which figures are from which run.
  const ran = { commit: gitCommit(), date: new Date().toISOString(), load: Number(loadavg()[0].toFixed(1)) };
  const child = spawnSync(process.execPath, ["--expose-gc", join(here, "run.mjs"), "--one", name], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
    timeout: 15 * 60 * 1000,
  });
  const marker = child.stdout.lastIndexOf("@@RESULT@@");
  if (child.status !== 0 || marker === -1) {
    sections.push({ name, title: name, markdown: `**failed** (exit ${child.status ?? child.signal}); see stderr of \`npm run bench -- ${name}\`.`, data: null, ran });
    continue;
  }
  sections.push({ name, ...JSON.parse(child.stdout.slice(marker + "@@RESULT@@".length)), ran });
}

function gitCommit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: here, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

const machine = {
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  os: `${platform()} ${release()}`,
  node: process.version,
  commit: gitCommit(),
  date: new Date().toISOString(),
};

const md = [
  "# Benchmark results",
  "",
  "Written by `npm run bench` (bench/run.mjs). Each section ran in its own process. Ratios compare two",
  "measurements taken in the same run, so they are more stable than the absolute times on a shared machine.",
  "",
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node};`,
  `commit ${machine.commit}; ${machine.date}.`,
  "",
  ...sections.flatMap((s) => [`## ${s.title}`, "", s.markdown.trim(), ""]),
].join("\n");

/** The "Beside the peers" section is written by bench/peers/run.mjs (npm run bench:peers): kept, at the end, whenever this rewrites RESULTS.md. */
function withPeersSection(text) {
  let current = "";
  try {
    current = readFileSync(join(here, "RESULTS.md"), "utf8");
  } catch {
    return text;
  }
  const at = current.indexOf("\n## Beside the peers\n");
  if (at === -1) return text;
  const next = current.indexOf("\n## ", at + 1);
  return `${text.trimEnd()}\n\n${current.slice(at + 1, next === -1 ? undefined : next).trimEnd()}\n`;
}

/** One line per run that produced the sections shown: commit, time span, load average at each section's start. */
function provenanceLines(shown, fallback) {
  const runs = new Map();
  for (const s of shown) {
    const ran = s.ran ?? { commit: fallback.commit, date: fallback.date };
    const group = runs.get(ran.commit) ?? { commit: ran.commit, dates: [], loads: [], titles: [], notes: new Set() };
    group.dates.push(ran.date);
    if (ran.note !== undefined) group.notes.add(ran.note);
    if (ran.load !== undefined) group.loads.push(ran.load);
    group.titles.push(s.title);
    runs.set(ran.commit, group);
  }
  const ordered = [...runs.values()].sort((a, b) => (a.dates.toSorted().at(-1) < b.dates.toSorted().at(-1) ? 1 : -1));
  return ordered.flatMap((g) => {
    const dates = g.dates.toSorted();
    const span = dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`;
    const load = g.loads.length === 0 ? "" : `; load average at each start ${Math.min(...g.loads)}–${Math.max(...g.loads)}`;
    const notes = [...g.notes].map((n) => `; ${n}`).join("");
    return [`Ran at commit ${g.commit} (${span}${load}${notes}): ${g.titles.join("; ")}.`, ""];
  });
}

if (update) {
  const previous = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
  const merged = previous.sections.map((old) => sections.find((s) => s.name === old.name) ?? old);
  for (const s of sections) if (!merged.some((m) => m.name === s.name)) merged.push(s);
  const title = (s) => `## ${s.title}`;
  const text = [
    ...md.split("\n").slice(0, 5),
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}.`,
    "",
    ...provenanceLines(merged, previous.machine),
    ...merged.flatMap((s) => [title(s), "", s.markdown.trim(), ""]),
  ].join("\n");
  writeFileSync(join(here, "RESULTS.md"), withPeersSection(text));
  writeFileSync(join(here, "results.json"), `${JSON.stringify({ machine: previous.machine, updated: { ...machine, sections: sections.map((s) => s.name) }, sections: merged }, null, 2)}\n`);
  process.stderr.write(`bench: updated ${sections.map((s) => s.name).join(", ")} in bench/RESULTS.md and bench/results.json\n`);
} else if (wanted.length === 0) {
  writeFileSync(join(here, "RESULTS.md"), withPeersSection(md));
  writeFileSync(join(here, "results.json"), `${JSON.stringify({ machine, sections }, null, 2)}\n`);
  process.stderr.write("bench: wrote bench/RESULTS.md and bench/results.json\n");
} else {
  process.stdout.write(`${md}\n`);
}
