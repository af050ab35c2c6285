// Profiling aid (not a benchmark): `mcpvm serve --http` under --cpu-prof while 10 HTTP clients make
// direct echo calls, then self time summed by function and by package/file of the gateway process.
//   node bench/_gw-profile.mjs [fixture|everything] [calls per client] [clients] [--no-prof] [--floor]
//   (--floor: the same load on bench/_null-proxy.mjs http-stdio, the minimal SDK proxy, instead of the gateway)
//   node bench/_gw-profile.mjs --summarize <file.cpuprofile> [calls]
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, makeHome, NULL_PROXY, rssOf, startHttpGateway, startUrlServer, UPSTREAMS } from "./_gw-load.mjs";

/** Where a frame's code lives: a package name, our source file, or node's internals. */
function placeOf(url) {
  if (url === "") return "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm !== -1) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf("/dist/");
  if (dist !== -1) return url.slice(dist + 1);
  if (url.startsWith("node:")) return url;
  return url;
}

/**
 * Self time by package/file and by function, and inclusive time of our own functions (dist/src),
 * per call: only samples of the load (between the first and the last sample with `marker` on the
 * stack, the SDK's request conversion of every HTTP request) count, so start-up work (listing,
 * audit, module loading) stays out.
 */
export function summarize(profile, { calls, top = 40, marker = "toWebRequest" } = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id) => {
    const frames = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) frames.push(byId.get(cur));
    return frames;
  };
  const times = [];
  let t = 0;
  for (const dt of profile.timeDeltas) times.push((t += dt));
  const marked = profile.samples.map((id) => stackOf(id).some((n) => n.callFrame.functionName === marker));
  const first = marked.indexOf(true);
  const last = marked.lastIndexOf(true);
  const self = new Map();
  for (let i = Math.max(0, first); i <= last; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map();
  const byPlace = new Map();
  const inclusive = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const place = placeOf(url);
    const fn = `${functionName || "(anonymous)"} ${place}:${lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const seen = new Set();
    for (const frame of stackOf(id)) {
      const where = placeOf(frame.callFrame.url);
      if (!where.startsWith("dist/src/")) continue;
      const key = `${frame.callFrame.functionName || "(anonymous)"} ${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const perCall = (us) => (calls === undefined ? "" : `${(us / calls).toFixed(0).padStart(6)} µs/call `);
  const rows = (map, n = top) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${(us / 1000).toFixed(1).padStart(9)} ms ${((us / total) * 100).toFixed(1).padStart(5)} % ${perCall(us)} ${k}`);
  const window = first === -1 ? "no load window found" : `load window ${((times[last] - times[first]) / 1e6).toFixed(1)} s`;
  return [
    `${window}, sampled ${(total / 1000).toFixed(0)} ms`,
    "",
    "self time by package/file:",
    ...rows(byPlace, 25),
    "",
    "self time by function:",
    ...rows(byFn),
    "",
    "inclusive time of our functions (dist/src):",
    ...rows(inclusive),
  ].join("\n");
}

if (process.argv[2] === "--summarize") {
  process.stdout.write(`${summarize(JSON.parse(await readFile(process.argv[3], "utf8")), { calls: process.argv[4] === undefined ? undefined : Number(process.argv[4]), top: 60 })}\n`);
} else {
  const flag = (name) => {
    const at = process.argv.indexOf(name);
    if (at !== -1) process.argv.splice(at, 1);
    return at !== -1;
  };
  const noProf = flag("--no-prof");
  const floor = flag("--floor");
  const which = process.argv[2] ?? "fixture";
  const calls = Number(process.argv[3] ?? 300);
  const clients = Number(process.argv[4] ?? 10);
  const upstream = UPSTREAMS[which];
  const home = await makeHome({ u: upstream.config }, [`u.${upstream.tool}`]);
  const profDir = await mkdtemp(join(tmpdir(), "mcpvm-gwprof-"));
  const nodeArgs = noProf ? [] : ["--cpu-prof", `--cpu-prof-dir=${profDir}`];
  const gateway = floor
    ? await startUrlServer([...nodeArgs, NULL_PROXY, "http-stdio", upstream.config.command, ...upstream.config.args], {})
    : await startHttpGateway(home.env, { nodeArgs });
  const result = await load(gateway.url, { clients, calls, tool: floor ? upstream.tool : `u_${upstream.tool}`, upstream, pids: [gateway.pid] });
  const rss = rssOf(gateway.pid);
  await gateway.close();
  process.stdout.write(`${JSON.stringify({ which, target: floor ? "minimal SDK proxy" : "gateway", clients, ...result, rssMiB: rss / 2 ** 20 })}\n`);
  const files = (await readdir(profDir)).filter((f) => f.endsWith(".cpuprofile"));
  for (const f of files) {
    process.stdout.write(`profile ${join(profDir, f)}\n`);
    process.stdout.write(`${summarize(JSON.parse(await readFile(join(profDir, f), "utf8")), { calls: result.calls })}\n`);
  }
  await rm(home.dir, { recursive: true, force: true });
}
