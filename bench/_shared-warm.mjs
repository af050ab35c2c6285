// The shared worker engine's warm rows (issue 15: warm run <= 1 ms, host call <= 25 µs, new engine
// <= 2 ms) for two builds side by side, e.g. main's dist and a branch's: each build in a process of
// its own, kept alive for the whole run, and the rounds interleaved (A, B, B, A, ...) so that load
// from other work on the machine falls on both alike. The same measures as bench/sandbox.mjs's rows:
// - warm: a trivial run after a 10 ms idle pause (the worker has its next sandbox ready), wall and process CPU (all threads);
// - back to back: trivial runs one after another;
// - new engine: create + trivial run + dispose, after 100 engines, after a 10 ms pause;
// - host call: (loop of 2,000 trivial host calls - the same loop without) / 2,000, wall and process CPU.
// Usage: node bench/_shared-warm.mjs <distA> [distB] [rounds=6] [kind=shared|inline|thread], e.g. main's build
// copied to .ab/before (a directory inside the checkout, so its imports find node_modules; keep it out of
// git and lint) beside `dist`.
// Files starting with _ are not sections.
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fmt, summarize } from "./_stats.mjs";

const SELF = fileURLToPath(import.meta.url);
const CALLS = 2000;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
let runs = 0;
const trivial = () => ({ code: `return 1; // run ${++runs}` });

async function child(dist, kind) {
  const { createQuickJsEngine } = await import(`${dist}src/sandbox/engines/quickjs.js`);
  const { createQuickJsInlineEngine } = await import(`${dist}src/sandbox/engines/quickjs-inline.js`);
  const create = (options = {}) => (kind === "inline" ? createQuickJsInlineEngine({}) : createQuickJsEngine({ ...options, workerMode: kind === "thread" ? "thread" : "shared" }));
  const must = async (engine, request) => {
    const result = await engine.run(request);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  };
  const timed = async (engine, request) => {
    const started = performance.now();
    await must(engine, request);
    return performance.now() - started;
  };
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const once = async () => {
    const started = performance.now();
    const engine = await create({ warmWorkers: 1 });
    await must(engine, trivial());
    await engine.dispose();
    return performance.now() - started;
  };
  const firstEngine = await once();
  for (let i = 0; i < 100; i++) await once();
  const engine = await create({ warmWorkers: 1 });
  const modules = { bench: { noop: () => null } };
  const loop = (body) => `const m = require("host:bench"); for (let i = 0; i < ${CALLS}; i++) { ${body} } return 0;`;
  for (let i = 0; i < 50; i++) await must(engine, trivial());
  for (let i = 0; i < 3; i++) await must(engine, { code: loop("m.noop();"), modules });
  process.send({ ready: true, firstEngine });
  process.on("message", async () => {
    const round = { warm: [], warmCpu: [], backToBack: [], newEngine: [], hostCall: [], hostCallCpu: [] };
    for (let i = 0; i < 20; i++) {
      await sleep(10);
      const c0 = cpuMs();
      round.warm.push(await timed(engine, trivial()));
      round.warmCpu.push(cpuMs() - c0);
    }
    for (let i = 0; i < 30; i++) round.backToBack.push(await timed(engine, trivial()));
    for (let i = 0; i < 5; i++) {
      await sleep(10);
      round.newEngine.push(await once());
    }
    for (let i = 0; i < 3; i++) {
      const c0 = cpuMs();
      const withCalls = await timed(engine, { code: loop("m.noop();"), modules });
      const c1 = cpuMs();
      const without = await timed(engine, { code: loop("void i;"), modules });
      const c2 = cpuMs();
      round.hostCall.push(((withCalls - without) * 1000) / CALLS);
      round.hostCallCpu.push(((c1 - c0 - (c2 - c1)) * 1000) / CALLS);
    }
    process.send(round);
  });
}

async function driver(dists, rounds, kind) {
  const children = dists.map((dist) => fork(SELF, ["--child", dist, kind], { execArgv: ["--expose-gc"] }));
  const next = (proc) => new Promise((done) => proc.once("message", done));
  const ready = [];
  for (const proc of children) ready.push(await next(proc));
  const all = dists.map(() => ({ warm: [], warmCpu: [], backToBack: [], newEngine: [], hostCall: [], hostCallCpu: [] }));
  const loadStart = loadavg()[0];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? dists.map((_, i) => i) : dists.map((_, i) => dists.length - 1 - i);
    for (const index of order) {
      children[index].send("round");
      const got = await next(children[index]);
      for (const key of Object.keys(got)) all[index][key].push(...got[key]);
    }
  }
  const loadEnd = loadavg()[0];
  for (const proc of children) proc.kill();
  console.log(`kind ${kind}, ${rounds} rounds, load ${loadStart.toFixed(2)} at start, ${loadEnd.toFixed(2)} at end`);
  for (const [index, dist] of dists.entries()) {
    const row = (name, samples, unit) => {
      const s = summarize(samples);
      return `${name} p50 ${unit(s.p50)} p95 ${unit(s.p95)}`;
    };
    const us = (v) => `${v.toFixed(1)} µs`;
    console.log(`\n${dist} (first engine ${fmt(ready[index].firstEngine)})`);
    console.log("  " + row("warm", all[index].warm, fmt) + "; " + row("process CPU", all[index].warmCpu, fmt));
    console.log("  " + row("back to back", all[index].backToBack, fmt));
    console.log("  " + row("new engine", all[index].newEngine, fmt));
    console.log("  " + row("host call wall", all[index].hostCall, us) + "; " + row("CPU", all[index].hostCallCpu, us));
  }
}

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else {
  const args = process.argv.slice(2);
  const kinds = ["shared", "inline", "thread"];
  const dists = args.filter((arg) => !/^\d+$/.test(arg) && !kinds.includes(arg)).map((dir) => pathToFileURL(resolve(dir)).href + "/");
  const rounds = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 6);
  const kind = kinds.find((name) => args.includes(name)) ?? "shared";
  await driver(dists, rounds, kind);
}
