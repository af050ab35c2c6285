// Where the main thread's time goes in a whole `mcpvm run -e 'return 1'` (files starting with _ are not
// benchmarks): runs the built CLI under `node --cpu-prof` a few times in the given home and sums the
// main thread's profiles. Figures are shares and relative sizes: the profiler slows what it samples.
// `MCPVM_HOME=<home> node bench/_startup-profile.mjs [runs] [bin]` prints, per run (means):
// time by who asked for it (the nearest package or mcpvm source file on the stack, source-mapped through
// dist/cli's maps), inclusive time of mcpvm's own functions, and the scripts the main thread compiled.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mainThreadProfile, placeOf } from "./_cpuprofile.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv[2] ?? 8);
const bin = process.argv[3] ?? join(here, "..", "bin", "mcpvm.js");
const args = (process.env.PROFILE_ARGS ?? "run -e return~1").split(" ").map((a) => a.replaceAll("~", " "));

const asked = new Map();
const inclusive = new Map();
const scripts = new Map();
let sampledUs = 0;
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);

for (let i = 0; i < runs; i += 1) {
  const dir = mkdtempSync(join(tmpdir(), "mcpvm-startup-prof-"));
  try {
    const child = spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", dir, bin, ...args], { encoding: "utf8" });
    if (child.status !== 0) throw new Error(`exit ${child.status}: ${child.stderr.slice(0, 400)}`);
    const file = mainThreadProfile(readdirSync(dir));
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const n of profile.nodes) if (n.callFrame.url !== "") scripts.set(n.callFrame.url, true);
    profile.samples.forEach((id, index) => {
      const us = profile.timeDeltas[index + 1] ?? 0;
      const stack = [];
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur));
      const leaf = stack[0].callFrame.functionName;
      if (leaf === "(idle)") return;
      sampledUs += us;
      let bucket = leaf === "(garbage collector)" ? "garbage collection" : undefined;
      const seen = new Set();
      for (const frame of stack) {
        const place = placeOf(frame.callFrame);
        if (place === "" || place.startsWith("node:")) continue;
        const name = place.startsWith("dist/src/") ? place.slice("dist/src/".length).replace(/\.js$/, "") : place.startsWith("file://") ? place.slice(place.lastIndexOf("/") + 1) : place;
        bucket ??= name;
        const key = `${frame.callFrame.functionName || "(anonymous)"} ${name}`;
        if (place.startsWith("dist/src/") && !seen.has(key)) {
          seen.add(key);
          add(inclusive, key, us);
        }
      }
      bucket ??= leaf === "(program)" ? "V8 (compiler, runtime)" : `node internals (${placeOf(stack.find((f) => placeOf(f.callFrame).startsWith("node:"))?.callFrame ?? { url: "" }) || "native"})`;
      add(asked, bucket, us);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = (map, n) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${(us / runs / 1000).toFixed(2).padStart(8)} ms ${((us / sampledUs) * 100).toFixed(1).padStart(5)} %  ${k}`);
const ours = [...scripts.keys()].filter((u) => u.includes("/dist/") || u.includes("/plugins/"));
process.stdout.write(
  [
    `${runs} runs of ${args.join(" ")}; main thread busy (sampled, idle excluded) ${(sampledUs / runs / 1000).toFixed(1)} ms per run`,
    "",
    "busy time by who asked for it:",
    ...rows(asked, 35),
    "",
    "inclusive time of mcpvm's functions:",
    ...rows(inclusive, 45),
    "",
    `mcpvm / plugin scripts with samples (${ours.length}):`,
    ...ours.map((u) => `  ${u.slice(u.indexOf("/dist/") === -1 ? u.indexOf("/plugins/") : u.indexOf("/dist/"))}`),
  ].join("\n") + "\n",
);
