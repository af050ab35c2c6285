// Profiles the file-name row of bench/screening.mjs (files starting with _ are not benchmarks): run under
// `node --cpu-prof --cpu-prof-dir=<dir> bench/_screening-profile.mjs [dist root]`, then
// `node bench/_screening-profile.mjs --read <dir>` charges each sample to the outermost rule family on its stack.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const EXTS = ["ts", "js", "json", "md", "png", "txt", "yaml", "lock", "tsx", "css"];
const WORDS = ["index", "server", "config", "README", "package", "utils", "helper", "audit", "screen", "output", "main", "test", "fixture", "report", "draft", "invoice", "notes"];
const files = (salt) => Array.from({ length: 1000 }, (_, i) => `${WORDS[i % WORDS.length]}-${salt}${i}.${EXTS[i % EXTS.length]}`);

// The functions screenText calls, and the relations findFeatures calls: a sample is charged to the first of these
// (from the outermost frame in) on its stack, so the table reads as "time per family".
const FAMILIES = [
  "findHiddenText", "stripHidden", "textViews", "identifierWords", "maskOwnTools", "findPhrases", "findSecrets", "findInjection",
  "findCrossToolSteering", "findLookalikeHost", "findEncodedRuns", "escalate", "dedupe",
  "candidates", "governanceOf", "addressRelationsOf", "userRelationsOf", "outcomeRelationsOf", "destinationAt", "harvestAt",
  "withoutOversight", "speakPlaceholders", "computeFeatures", "textModelScore", "signalsOf", "intentHit", "screenText", "auditText", "auditContent",
];

/** The newest .cpuprofile in `dir`: its nodes by id, each node's parent, and the µs sampled in each node. */
function loadProfile(dir) {
  const file = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort().at(-1);
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  return { byId, parent, dt };
}

function read(dir) {
  const { byId, parent, dt } = loadProfile(dir);
  const charged = new Map();
  let total = 0;
  for (const [id, us] of dt) {
    const stack = [];
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at).callFrame);
    stack.reverse();
    if (!stack.some((f) => f.functionName === "screenText") || !stack.some((f) => f.functionName === "measuredRounds")) continue;
    total += us;
    // The innermost family frame under screenText: computeFeatures' relations count as themselves, not as signalsOf.
    let name = "screenText (own)";
    for (const f of stack) if (FAMILIES.includes(f.functionName) && f.functionName !== "auditText" && f.functionName !== "auditContent" && f.functionName !== "screenText") name = f.functionName;
    charged.set(name, (charged.get(name) ?? 0) + us);
  }
  const rows = [...charged].sort((a, b) => b[1] - a[1]);
  console.log(`screenText samples: ${(total / 1000).toFixed(0)} ms`);
  for (const [name, us] of rows) console.log(`${name.padEnd(24)} ${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %`);
}

if (process.argv[2] === "--read") read(process.argv[3]);
else if (process.argv[2] !== "--self") {
  const root = resolve(process.argv[2] ?? ".");
  const { screenModelOutput } = await import(pathToFileURL(join(root, "dist/src/mcp/service/screen-output.js")).href);
  screenModelOutput({ result: files("warm") });
  const rounds = Number(process.env.ROUNDS ?? 20);
  const start = performance.now();
  const cpu = process.cpuUsage();
  // Named, so --read counts only the samples of these rounds (not the warm-up, which compiles the rules).
  const measuredRounds = () => {
    for (let r = 0; r < rounds; r++) screenModelOutput({ result: files(`r${r}x`), logs: [] });
  };
  measuredRounds();
  const used = process.cpuUsage(cpu);
  console.log(`${rounds} rounds of 1,000 file names: ${((performance.now() - start) / rounds).toFixed(1)} ms wall, ${((used.user + used.system) / 1000 / rounds).toFixed(1)} ms CPU per round`);
}

/** Self time by function (file:line) under one family frame, for `--self <dir> <family>`. */
function selfUnder(dir, family) {
  const { byId, parent, dt } = loadProfile(dir);
  const self = new Map();
  for (const [id, us] of dt) {
    const names = [];
    for (let at = id; at !== undefined; at = parent.get(at)) names.push(byId.get(at).callFrame.functionName);
    // Innermost family frame must be `family`.
    const inner = names.find((n) => FAMILIES.includes(n));
    if ((family !== "*" && inner !== family) || !names.includes("measuredRounds")) continue;
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || "(anon)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}
if (process.argv[2] === "--self") selfUnder(process.argv[3], process.argv[4]);
