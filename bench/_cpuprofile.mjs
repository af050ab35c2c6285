// Reads a V8 .cpuprofile (node --cpu-prof) for the gateway benches (files starting with _ are not
// benchmarks): self time by function and file, inclusive time of mcpvm's own functions, and time
// by "who asked for it" — each sample charged to the nearest frame on its stack that is a package or
// one of our files, so node internals and native calls (socket writes, hashing) count for the code
// that called them.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

const sourceMaps = new Map();

/** The source map beside a bundled file (dist/cli/*.mjs.map), read once; undefined if there is none. */
function sourceMapOf(url) {
  if (!sourceMaps.has(url)) {
    let map;
    try {
      const file = url.startsWith("file://") ? fileURLToPath(url) : url;
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = undefined;
    }
    sourceMaps.set(url, map);
  }
  return sourceMaps.get(url);
}

/**
 * Where a frame's code lives: a package name, our source file (as `dist/src/<path>.js`), node's internals,
 * or "" for native. The CLI ships as an esbuild bundle (dist/cli/), so a frame there is looked up in
 * the bundle's source map to find the file and package it came from.
 */
export function placeOf(frameOrUrl) {
  const frame = typeof frameOrUrl === "string" ? { url: frameOrUrl } : frameOrUrl;
  let url = frame.url;
  if (url === "") return "";
  if (url.includes("/dist/cli/") && frame.lineNumber !== undefined) {
    const entry = sourceMapOf(url)?.findEntry(frame.lineNumber, frame.columnNumber ?? 0);
    if (entry !== undefined && typeof entry.originalSource === "string") url = entry.originalSource;
  }
  const nm = url.lastIndexOf("node_modules/");
  if (nm !== -1) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const source = url.lastIndexOf("/src/");
  if (!url.includes("/dist/") && source !== -1 && /\.ts$/.test(url)) return `dist/src/${url.slice(source + "/src/".length).replace(/\.ts$/, ".js")}`;
  const dist = url.indexOf("/dist/");
  if (dist !== -1) return url.slice(dist + 1);
  return url;
}

/** The main thread's profile among a process's (`CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`, thread 0). */
export function mainThreadProfile(files) {
  const profiles = files.filter((f) => f.endsWith(".cpuprofile"));
  return profiles.find((f) => f.split(".")[4] === "0") ?? profiles[0];
}

/**
 * The samples of the load only: between the first and the last sample with `marker` on its stack
 * (the SDK's conversion of every HTTP request), so start-up work (listing, audit, module loading)
 * stays out. Returns per-node self time (µs) in that window.
 */
function loadWindow(profile, marker) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id) => {
    const frames = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) frames.push(byId.get(cur));
    return frames;
  };
  const marked = profile.samples.map((id) => stackOf(id).some((n) => n.callFrame.functionName === marker));
  const first = marked.indexOf(true);
  const last = marked.lastIndexOf(true);
  const self = new Map();
  let windowUs = 0;
  for (let i = Math.max(0, first); i <= last; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0;
    windowUs += us;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + us);
  }
  return { byId, stackOf, self, windowUs, found: first !== -1 };
}

/** The bucket a sample is charged to: GC, idle, or the nearest package / mcpvm file asking for the work. */
function askerOf(stack) {
  const leaf = stack[0].callFrame.functionName;
  if (leaf === "(garbage collector)") return "garbage collection";
  if (leaf === "(idle)") return "(idle)";
  if (leaf === "(program)") return "V8 (compiler, runtime)";
  for (const frame of stack) {
    const place = placeOf(frame.callFrame);
    if (place === "" || place.startsWith("node:")) continue;
    if (place.startsWith("dist/src/")) return `mcpvm ${place.slice("dist/src/".length).replace(/\.js$/, "")}`;
    if (place.startsWith("file://")) return place.slice(place.lastIndexOf("/") + 1);
    return place;
  }
  const top = stack.find((f) => placeOf(f.callFrame).startsWith("node:"));
  return top === undefined ? "native (no JS caller)" : `node internals (${placeOf(top.callFrame)})`;
}

/**
 * Busy time (idle excluded) of the load window, charged to who asked for it: [{ bucket, us, share }],
 * biggest first, plus the window's length and busy total.
 */
export function timeByAsker(profile, { marker = "toWebRequest" } = {}) {
  const { stackOf, self, windowUs, found } = loadWindow(profile, marker);
  const buckets = new Map();
  for (const [id, us] of self) {
    const bucket = askerOf(stackOf(id));
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
  }
  const idle = buckets.get("(idle)") ?? 0;
  buckets.delete("(idle)");
  const busy = [...buckets.values()].reduce((a, b) => a + b, 0);
  return {
    found,
    windowUs,
    busyUs: busy,
    idleUs: idle,
    rows: [...buckets.entries()].sort((a, b) => b[1] - a[1]).map(([bucket, us]) => ({ bucket, us, share: us / busy })),
  };
}

/** A text report for bench/_gw-profile.mjs. */
export function summarize(profile, { calls, top = 40, marker = "toWebRequest" } = {}) {
  const { byId, stackOf, self, windowUs, found } = loadWindow(profile, marker);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map();
  const byPlace = new Map();
  const inclusive = new Map();
  for (const [id, us] of self) {
    const { functionName, lineNumber } = byId.get(id).callFrame;
    const place = placeOf(byId.get(id).callFrame) || "(native/V8)";
    const fn = `${functionName || "(anonymous)"} ${place}:${lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const seen = new Set();
    for (const frame of stackOf(id)) {
      const where = placeOf(frame.callFrame);
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
  const asked = timeByAsker(profile, { marker });
  const askedMap = new Map(asked.rows.map((r) => [r.bucket, r.us]));
  return [
    `${found ? `load window ${(windowUs / 1e6).toFixed(1)} s` : "no load window found"}, sampled ${(total / 1000).toFixed(0)} ms`,
    "",
    "busy time by who asked for it (idle excluded):",
    ...rows(askedMap, 30),
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
