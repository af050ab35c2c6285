// A/B of the file-name row between two builds (files starting with _ are not benchmarks): processes of each build
// alternate, each screens ROUNDS rounds of 1,000 distinct file names after a warm-up (bench/_screening-profile.mjs)
// and reports wall and CPU time per round; the medians of each build's processes are compared, with the load average.
// Usage: node bench/_screening-ab.mjs <dist root A> <dist root B> [pairs]
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const driver = fileURLToPath(new URL("./_screening-profile.mjs", import.meta.url));
const [a, b, pairs = "6"] = process.argv.slice(2);
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const runs = { A: { wall: [], cpu: [] }, B: { wall: [], cpu: [] } };
const loads = [loadavg()[0]];
for (let i = 0; i < Number(pairs); i++) {
  for (const [name, root] of i % 2 === 0 ? [["A", a], ["B", b]] : [["B", b], ["A", a]]) {
    const line = execFileSync(process.execPath, [driver, root], { encoding: "utf8", env: { ...process.env, ROUNDS: "15" } });
    const [, wall, cpu] = /: ([\d.]+) ms wall, ([\d.]+) ms CPU/.exec(line) ?? [];
    runs[name].wall.push(Number(wall));
    runs[name].cpu.push(Number(cpu));
  }
  loads.push(loadavg()[0]);
}
for (const name of ["A", "B"]) {
  console.log(`${name} (${name === "A" ? a : b}): wall per round median ${median(runs[name].wall)} ms [${runs[name].wall.join(", ")}], CPU median ${median(runs[name].cpu)} ms [${runs[name].cpu.join(", ")}]`);
}
console.log(`B/A: wall ${(median(runs.B.wall) / median(runs.A.wall)).toFixed(2)}x, CPU ${(median(runs.B.cpu) / median(runs.A.cpu)).toFixed(2)}x; load average ${loads.map((l) => l.toFixed(1)).join(" → ")}`);
