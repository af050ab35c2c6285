// The new-engine case in a fresh process, for the sandbox section (bench/sandbox.mjs): each engine
// kind in a child process of its own (this file with --fresh-child), so that no other kind has
// already had V8 compile the wasm module they share (the in-thread engine and the worker engine's
// shared mode run the same asyncify build). Files starting with _ are not sections of `npm run bench`.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { summarize } from "./_stats.mjs";
import { ENGINES, mustRun, sleep, trivial } from "./_sandbox-engines.mjs";

const SELF = fileURLToPath(import.meta.url);

/** Engines created, run once and disposed in each measured stretch. */
export const FRESH_ENGINES = 20;
/** Engines between the early and the late stretch: by then V8 has compiled the module's hot functions. */
const BETWEEN = 100;

/** Runs in a child process: { early, late } summaries (ms) and the process CPU (every thread) of each stretch. */
export function measureFresh(kind, dist) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SELF, "--fresh-child", kind, dist], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`fresh child exited with ${code}`))));
  });
}

async function freshChild(kind, dist) {
  const factory = await ENGINES[kind](dist);
  const once = async () => {
    const started = performance.now();
    const engine = await factory.create({ warmWorkers: 1 });
    await mustRun(engine, trivial());
    await engine.dispose();
    return performance.now() - started;
  };
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  // As bench/sandbox.mjs's newEngine: idle for a moment before each engine.
  const stretch = async () => {
    const times = [];
    const cpuBefore = cpuMs();
    let slept = 0;
    for (let i = 0; i < FRESH_ENGINES; i++) {
      const pause = performance.now();
      await sleep(10);
      slept += performance.now() - pause;
      times.push(await once());
    }
    return { ...summarize(times), cpuMs: cpuMs() - cpuBefore, wallMs: times.reduce((sum, time) => sum + time, 0) + slept };
  };
  await once();
  await factory.settle?.();
  const early = await stretch();
  for (let i = 0; i < BETWEEN; i++) await once();
  await sleep(500);
  const late = await stretch();
  process.stdout.write(JSON.stringify({ early, late }));
}

if (process.argv[1] === SELF && process.argv[2] === "--fresh-child") {
  await freshChild(process.argv[3], process.argv[4]);
  process.exit(0);
}
