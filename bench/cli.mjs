// `mcpvm run` of a trivial script as a whole process (issue 15 goal: <= 150 ms), beside `node -e 0`
// (starting Node itself) and the floor (bench/_startup-floor.mjs: Node + one worker thread + the QuickJS
// wasm compiled and instantiated + `1` evaluated, none of mcpvm's code), and beside the ways of
// building the CLI that were tried and lost. Every case is one process per sample, all interleaved in
// the same rounds. The config home has the mcp plugin approved and enabled and three servers
// configured (stdio via npx, stdio via node, http) that the script does not use, so none is started.
import { execFileSync, spawnSync } from "node:child_process";
import { cp, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli } from "../scripts/build-cli.mjs";
import { buildCodeCacheCli } from "./_cli-code-cache.mjs";
import { buildSnapshotCli } from "./_cli-snapshot.mjs";
import { fmt, summarize, table, verdict } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, "..");
const BIN = join(ROOT, "bin", "mcpvm.js");
const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 10);
/** A script that computes for about half a second (the in-thread engine's compute against the worker engine's). */
const COMPUTE = "let s = 0; for (let i = 0; i < 3000000; i++) { s = (s * 31 + i) % 1000003; } return s;";
// BENCH_CLI_BEFORE=<another build's bin/mcpvm.js>: measured in the same rounds, for a before/after row (a copy of the
// package with bin/, dist/, plugins/ and package.json, so that it finds its native plugins).
const BEFORE = process.env.BENCH_CLI_BEFORE;
const TARGET_MS = 150;
// Each process reports its own CPU time (user + system, every thread) as it exits; the same one-line
// preload runs in every case, `node -e 0` included.
const CPU_PRELOAD =
  "data:text/javascript," + encodeURIComponent('process.on("exit", () => { const c = process.cpuUsage(); process.stderr.write(`\\n@@CPU@@${(c.user + c.system) / 1000}\\n`); });');

const TIMELINE_RUNS = 10;

const WHAT_THE_TRIES_SHOWED =
  "What the tried rows showed (wave 10; compare CPU, which the load stretches least): " +
  "**Node's start-up snapshot** (`bench/_cli-snapshot.mjs`: the CLI as one IIFE bundle, the blob built by `node --build-snapshot`) costs more CPU " +
  "than loading the modules: the process deserialises a 16 MB heap, the run's lazily imported modules (command, host, engine) are still " +
  "evaluated after the start, and even a snapshot with nothing in it starts slower than `node -e 0`. A bin cannot use it without starting Node a second time (Node 20 has no exec and no way " +
  "to load a blob into a running process; a shebang cannot pass the flag portably), which adds a whole Node start. The best case, the run's " +
  "lazily imported modules evaluated while the blob is built, cannot even be built on Node 20.20: the sandbox's worker thread then fails at " +
  "start (`process.cwd` in node:internal/main/worker_thread reads a counter the deserialised main thread never set). Other limits met: " +
  "only built-in modules may be required while building, no dynamic import() after deserialising, no signal listener in the heap " +
  "(proper-lockfile's signal-exit), and whatever a module reads from the environment when it loads is frozen at build time. " +
  "**zod as one file** (shipped: `npm run build` writes dist/node_modules/zod, ~95 modules and every locale bundled into one with English " +
  "alone; the CLI bundle, the native plugins and the host sources under dist/ all resolve it, so they still share one copy): the \"before\" " +
  "rows are the same build with zod from node_modules. Bundling zod into the CLI itself was tried first and lost its gain as soon as a " +
  "native plugin (mcp, fetch, fs-*) was enabled, since those loaded node_modules/zod a second time. " +
  "**The in-thread engine** spends less CPU on a trivial run (no worker thread to boot; its wasm compile and QuickJS boot run on the main " +
  "thread after the modules, where the worker engine's run on another core meanwhile). Since wave 11 a computing script yields mcpvm's " +
  "thread every 5 ms, so Ctrl-C ends it at once on this engine too (tests/e2e/progress-cancel.test.ts). It is still not the default for " +
  "`mcpvm run`: the CPU-bound rows show what a script that computes pays, since the asyncify build runs guest JavaScript slower than the " +
  "sync build under Liftoff (`--liftoff-only`, as `mcpvm run` sets), and its stack limit is half the worker engine's (256 against 512 KiB). " +
  "Those rows are one loop under Liftoff with the process's start included: they understate what a computing guest pays in shared mode " +
  "in a gateway or REPL, where V8 tiers both builds up (the section \"Guest compute: shared mode against thread mode\", six workloads). " +
  "Wave 13 (interleaved A/B runs; compare CPU): **starting `run`'s worker from bin/mcpvm.js** before the CLI's main module loads (its own " +
  "bundle entry) asked for the thread only ~10 ms sooner, since the engine's modules and the wasm compile are most of what comes before it; " +
  "16 rounds at load 4.3: CPU p50 576 against 583 ms with nothing configured, 686 against 699 ms with the mcp plugin on, wall 500 against " +
  "498 and 643 against 692 ms: not kept. **Ending the process at once** when only stdio is left (`process.exit()`, skipping the major " +
  "collection V8 runs as a run ends): \"host closed\" to exit 10.3 against 3.6 ms, but not less CPU for the whole process (16 pairs at " +
  "load ~5): not kept. **zod's jitless mode** for one run parsed config.json and the four manifests in 14-16 instead of 17-19 ms, but needs " +
  "zod's configuration set before zod loads (an internal global): not kept. **The file lock loaded on first write** put signal-exit's " +
  "SIGINT listener after the run's own, which then killed the process at the first Ctrl-C: reverted (src/util/file-lock.ts). **Fewer " +
  "files**: esbuild splits by which entries reach a module and cannot merge chunks; a build for `run` alone, the other commands left " +
  "out, still loaded 43 files instead of 60. Shipped: the bundle's files are `.mjs` (Node's loader then skips the package.json scope " +
  "lookup of each; importing a run's modules took a median 15 ms less CPU over 20 pairs at load ~6). " +
  "Wave 20 (interleaved A/B on 2 cores shared with four other sessions, load 4-5; compare the main thread's CPU at \"run starts\", " +
  "`MCPVM_TRACE_STARTUP`): **the bundle and the shared zod minified** (whitespace and syntax, names kept; zod 396 -> 292 KB): 157.3 against " +
  "158.8 ms over 30 rounds, within the noise, so bytes are not what the loader pays for: not kept. **Loading the command while the wasm " +
  "compiles** (not awaiting the engine's start once the thread is prespawned): 184.9 against 184.3 ms, wall the same, over 40 rounds; the " +
  "main thread has no idle time there to fill: not kept. **A larger young generation** (`--semi-space-growth-factor=8` set from bin: 7 " +
  "scavenges instead of 10 in the process) cost more, 190.1 against 180.3 ms over 30 rounds (fresh pages to fault in): not kept. Shipped: " +
  "**the prespawned thread** (process wall p50 475 against 515 ms, CPU p50 340 against 359 ms, over 40 pairs in this section's home at load 7; " +
  "423 against 485 and 316 against 341 ms over 30 pairs in an empty home at load 8.7; the main thread's CPU unchanged), and **the file lock's " +
  "graceful-fs as node:fs and signal-exit's assert as a one-line check** in the bundle (its chunk 56 -> 30 KB; its JS time in the main " +
  "thread's profile 13.6 -> 3.2 ms, 8 profiled runs each at load ~7, the profiler's ms).";

const WHERE_THE_REST_GOES =
  "What stands between this and the floor (wave 13: the main thread under `--cpu-prof`, whose figures are shares since the profiler slows " +
  "what it samples, and the main thread's CPU at each step of the timeline above): the main thread's own work, not waiting. Node's own start is " +
  "about 120-130 ms of it before bin/mcpvm.js runs. Loading modules is the largest part after that: a `return 1` with the mcp plugin on loads " +
  "844 KB of JavaScript in 77 files (zod is 396 KB of it, in one file), and Node 20's ES module loader costs per file (resolving each import, " +
  "reading, compiling, linking: 80 small files took ~45 ms of CPU against ~3 ms for the same code in one file) and per byte (one bundle without " +
  "code splitting, 3.5 MB, cost the main thread 875 against 455 ms); importing the modules such a run loads and nothing else took 170-280 ms of " +
  "CPU (load ~3). zod: ~40 ms to import, then the schema parts built as their modules load (25-50 µs each; 595 with the mcp plugin on, 263 with " +
  "nothing configured, since the schemas only some runs parse are built on their first parse) and each schema's first parse. Garbage collection " +
  "is ~8 % of the main thread's profile: what a start allocates lives on, so every scavenge copies it (7 scavenges on the main thread). " +
  "Since wave 20 the worker is off that path: bin/mcpvm.js starts the thread before the CLI loads (src/cli/prespawn.ts), so Node's worker " +
  "bootstrap (a third of the worker's profile, compiling Node's internals) runs on the other core while the main thread loads the CLI; the " +
  "thread is handed its program, the boot data and the compiled wasm by message once the main thread has them (wave 13 started its worker " +
  "from bin too, but only after loading the engine and compiling the wasm, so the thread started only ~10 ms sooner). " +
  "Since wave 27 a run loads no plugin until its script requires one of their modules (src/host/deferred-plugins.ts): the enabled plugins' " +
  "modules are listed from plugin.json and the `host:mcp-<name>` modules and `tools` table from config.json's server names, so a `return 1` " +
  "with the mcp plugin on no longer hashes and audits the plugin's files for its approval check, imports it or validates its settings and " +
  "`mcpServers` (~25 ms of the main thread's CPU, ~55 ms of the process's, interleaved A/B at load ~9); discovery inspects only the enabled " +
  "plugins. The MCP service (client manager, audit, type " +
  "generator, approvals, pins, OAuth) is loaded by the script's first require of a server's module. The guest transform's parser (Babel, " +
  "590 KB) is loaded only for a script that needs a transform (src/sandbox/guest/plain-script.ts), the in-thread and the shared-mode " +
  "engines only when chosen. Nothing is waited for at exit: wasm is compiled with Liftoff only (with V8's default " +
  "tier-up, Node waits for the background TurboFan jobs, ~300 ms), and one worker is started, not two.";

/**
 * The steps `MCPVM_TRACE_STARTUP=1` prints (src/util/startup-trace.ts), each step's ms since the process
 * started and, where the line has it (Linux), the main thread's CPU time so far, over a few runs.
 */
function traceTimeline(env) {
  const byStep = new Map();
  for (let i = 0; i < TIMELINE_RUNS; i += 1) {
    const child = spawnSync(process.execPath, [BIN, "run", "-e", "return 1"], { env: { ...env, MCPVM_TRACE_STARTUP: "1" }, encoding: "utf8" });
    for (const match of child.stderr.matchAll(/^\[startup\]\s+([\d.]+) ms\s+(.+?)(?:\s+\(main thread CPU ([\d.]+) ms\))?$/gm)) {
      const entry = byStep.get(match[2]) ?? { at: [], cpu: [] };
      entry.at.push(Number(match[1]));
      if (match[3] !== undefined) entry.cpu.push(Number(match[3]));
      byStep.set(match[2], entry);
    }
  }
  return [...byStep]
    .map(([step, { at, cpu }]) => ({ step, ...summarize(at), mainCpu: cpu.length === 0 ? undefined : summarize(cpu).p50 }))
    .sort((a, b) => a.p50 - b.p50);
}

/** Which side decided the timeline's wall time: the worker's boot or the main thread's loading (p50s of the steps). */
function timelineReading(timeline, processCpu) {
  const at = (name) => timeline.find((step) => step.step === name);
  const [spawn, ready, built, runStarts, closed] = [at("thread: spawn") ?? at("thread: prespawned one taken"), at("thread: ready"), at("worker: sandbox built"), at("host: engine and plugins ready, run starts"), at("host closed")];
  if (spawn === undefined || ready === undefined || built === undefined || runStarts === undefined || closed === undefined) return "";
  const decided =
    built.p50 < runStarts.p50
      ? `the worker had built its first sandbox ("worker: sandbox built") ${fmt(runStarts.p50 - built.p50, 0)} before the main thread was ready to start the run, so the main thread's own work decided the wall time here`
      : `the main thread was ready to start the run ${fmt(built.p50 - runStarts.p50, 0)} before the worker had built its first sandbox, so the worker's boot (src/sandbox/engines/) decided the wall time here`;
  const cpu = closed.mainCpu === undefined ? "" : `; the main thread had used ${fmt(closed.mainCpu, 0)} of CPU by "host closed", of the ${fmt(processCpu, 0)} the whole process uses (p50 of the rounds above)`;
  return `The worker was handed its program at ${fmt(spawn.p50, 0)} ("${spawn.step}") and said ready at ${fmt(ready.p50, 0)} (the main thread reads that message between its own tasks); ${decided}${cpu}.`;
}

export default async function () {
  const home = await mkdtemp(join(tmpdir(), "mcpvm-bench-cli-"));
  // Inside the package, so the variants resolve node_modules as the shipped build does.
  const variants = join(ROOT, "dist", `bench-cli-${process.pid}`);
  const env = { ...process.env, MCPVM_HOME: home };
  // The home each build uses, with the mcp plugin approved and enabled by that build: a build whose
  // plugin scanner differs (BENCH_CLI_BEFORE) gets a home of its own, or each would discard the
  // other's cached plugin scans (plugin-scans.json) and parse the plugin again on every start.
  const homeFor = async (bin, dir) => {
    await writeFile(
      join(dir, "config.json"),
      JSON.stringify({
        engine: "quickjs",
        mcpServers: {
          memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
          files: { command: "node", args: ["server.js"] },
          remote: { url: "http://127.0.0.1:9/mcp" },
        },
      }),
    );
    const homeEnv = { ...process.env, MCPVM_HOME: dir };
    execFileSync(process.execPath, [bin, "plugin", "approve", "mcp", "--yes"], { env: homeEnv, stdio: "ignore" });
    execFileSync(process.execPath, [bin, "plugin", "enable", "mcp"], { env: homeEnv, stdio: "ignore" });
    return homeEnv;
  };
  await homeFor(BIN, home);
  // A home with nothing in it: no plugin enabled, no server configured.
  const plainHome = await mkdtemp(join(tmpdir(), "mcpvm-bench-cli-plain-"));
  const plainEnv = { ...process.env, MCPVM_HOME: plainHome };
  const cleanup = [];
  const beforeHome = BEFORE === undefined ? undefined : await mkdtemp(join(tmpdir(), "mcpvm-bench-cli-before-"));
  const beforeEnv = BEFORE === undefined || beforeHome === undefined ? undefined : await homeFor(BEFORE, beforeHome);
  // As bin/mcpvm.js: the variant's own prespawn entry (src/cli/prespawn.ts) first, where it has one.
  const launcher = async (name, entry, prespawn) => {
    const file = join(variants, `${name}.mjs`);
    const first = prespawn === undefined ? "" : `(await import(${JSON.stringify(prespawn)})).prespawnForRun(process.argv.slice(2), process.env);\n`;
    await writeFile(file, `${first}const { runCli } = await import(${JSON.stringify(entry)});\nprocess.exitCode = await runCli(process.argv.slice(2), undefined, { wholeProcess: true });\n`);
    return file;
  };
  const run = (file) => ({ args: [file, "run", "-e", "return 1"], expect: "1" });
  try {
    await buildCli({ outdir: join(variants, "external"), packages: "external" });
    await buildCli({ outdir: join(variants, "bundled"), packages: "bundle" });
    const codeCache = await buildCodeCacheCli(ROOT, join(variants, "cjs"));
    const snapshot = await buildSnapshotCli(ROOT, join(variants, "snapshot"));
    // The same build with zod from node_modules (~95 modules) instead of dist/node_modules/zod (one file):
    // a copy of the package without dist/node_modules, beside a link to node_modules.
    const withoutSharedZod = await mkdtemp(join(tmpdir(), "mcpvm-bench-cli-zod-"));
    cleanup.push(withoutSharedZod);
    for (const part of ["bin", "dist/cli", "dist/plugins", "dist/src", "plugins", "package.json"]) await cp(join(ROOT, part), join(withoutSharedZod, part), { recursive: true });
    await symlink(join(ROOT, "node_modules"), join(withoutSharedZod, "node_modules"), "dir");
    const cases = [
      { key: "shipped", label: "**`mcpvm run -e 'return 1'`** (shipped: dist/cli bundle, packages mixed)", ...run(BIN), goal: true },
      { key: "tsc", label: "tried: the same sources unbundled (tsc's dist/src, one module per file)", ...run(await launcher("tsc", join(ROOT, "dist", "src", "cli", "main.js"), join(ROOT, "dist", "src", "cli", "prespawn.js"))) },
      { key: "external", label: "tried: bundle, every package external", ...run(await launcher("external", join(variants, "external", "main.mjs"), join(variants, "external", "prespawn.mjs"))) },
      { key: "bundled", label: "tried: bundle, every package bundled (zod twice: plugins import their own)", ...run(await launcher("bundled", join(variants, "bundled", "main.mjs"), join(variants, "bundled", "prespawn.mjs"))) },
      { key: "cache", label: "tried: one CommonJS file + V8 code cache (vm.Script cachedData; its worker not prespawned)", ...run(codeCache) },
      { key: "snapshot", label: "tried: Node start-up snapshot of the CLI (`node --snapshot-blob`, started directly: no launcher; its worker not prespawned)", args: ["--snapshot-blob", snapshot.blob, "run", "-e", "return 1"], expect: "1", snapshot: true },
      { key: "snapshotLaunch", label: "tried: the same snapshot started by a launcher, as bin/mcpvm.js would have to (Node 20 cannot load a snapshot into a running process)", ...run(snapshot.launcher) },
      { key: "nodeModulesZod", label: "before: the same build with zod from node_modules (~95 modules; dist/node_modules/zod is one file)", ...run(join(withoutSharedZod, "bin", "mcpvm.js")) },
      { key: "plainShipped", label: "the shipped CLI in a home with no plugin enabled", ...run(BIN), env: plainEnv },
      { key: "plainNodeModulesZod", label: "before: zod from node_modules, in that home with no plugin enabled", ...run(join(withoutSharedZod, "bin", "mcpvm.js")), env: plainEnv },
      { key: "inline", label: "tried: the in-thread engine (`--engine quickjs-inline`: no worker; wasm compiled and QuickJS booted on the main thread)", args: [BIN, "--engine", "quickjs-inline", "run", "-e", "return 1"], expect: "1" },
      { key: "compute", label: `a CPU-bound script (\`${COMPUTE}\`), the shipped CLI (worker engine)`, args: [BIN, "run", "-e", COMPUTE], expect: "488037" },
      { key: "computeInline", label: "the same CPU-bound script on the in-thread engine (`--engine quickjs-inline`)", args: [BIN, "--engine", "quickjs-inline", "run", "-e", COMPUTE], expect: "488037" },
      ...(BEFORE === undefined ? [] : [{ key: "before", label: `before: ${process.env.BENCH_CLI_BEFORE_LABEL ?? "BENCH_CLI_BEFORE"} (its own home)`, ...run(BEFORE), env: beforeEnv }]),
      { key: "floor", label: "floor: Node + 1 worker + QuickJS wasm compiled (Liftoff only, as `mcpvm run`), instantiated, `1` evaluated", args: [join(here, "_startup-floor.mjs")], expect: "1" },
      { key: "floorTier", label: "the same floor with V8's default wasm tier-up (what `mcpvm run` did before)", args: [join(here, "_startup-floor.mjs"), "--tier-up"], expect: "1" },
      { key: "snapshotEmpty", label: "a snapshot with nothing in it (`node --snapshot-blob`, an empty main): what starting from any snapshot costs", args: ["--snapshot-blob", snapshot.emptyBlob], expect: "", snapshot: true },
      { key: "node", label: "`node -e 0`", args: ["-e", "0"], expect: "" },
    ];
    const sample = (c) => {
      const start = process.hrtime.bigint();
      // A process started from a snapshot runs no --import preload: its blob's main reports its CPU (MCPVM_BENCH_CPU).
      const args = c.snapshot === true ? c.args : ["--import", CPU_PRELOAD, ...c.args];
      const child = spawnSync(process.execPath, args, { env: { ...(c.env ?? env), MCPVM_BENCH_CPU: "1" }, encoding: "utf8" });
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      // A launcher and the process it starts each report theirs: summed.
      const cpus = [...child.stderr.matchAll(/@@CPU@@([\d.]+)/g)].map((m) => Number(m[1]));
      if (child.status !== 0 || child.stdout.trim() !== c.expect || cpus.length === 0) throw new Error(`${c.key}: exit ${child.status}, stdout ${JSON.stringify(child.stdout)}, stderr ${child.stderr.slice(0, 400)}`);
      return { wall, cpu: cpus.reduce((a, b) => a + b, 0) };
    };
    for (const c of cases) sample(c); // warm-up: file caches, and the code cache's first write
    const load = loadavg()[0];
    const samples = new Map(cases.map((c) => [c.key, { wall: [], cpu: [] }]));
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? cases : [...cases].reverse();
      for (const c of order) {
        const { wall, cpu } = sample(c);
        samples.get(c.key).wall.push(wall);
        samples.get(c.key).cpu.push(cpu);
      }
    }
    const loadAfter = loadavg()[0];
    const timeline = traceTimeline(env);
    const stats = Object.fromEntries(cases.map((c) => [c.key, { wall: summarize(samples.get(c.key).wall), cpu: summarize(samples.get(c.key).cpu) }]));
    const node = stats.node;
    const floor = stats.floor;
    const rows = cases.map((c) => {
      const s = stats[c.key];
      return [
        c.label,
        fmt(s.wall.p50, 0),
        fmt(s.wall.p95, 0),
        `${(s.wall.p50 / node.wall.p50).toFixed(1)}x`,
        fmt(s.cpu.p50, 0),
        c.key === "node" ? "" : `${(s.cpu.p50 / floor.cpu.p50).toFixed(2)}x`,
        c.goal ? `<= ${TARGET_MS} ms` : "",
        c.goal ? verdict(s.wall.p50 <= TARGET_MS) : "",
      ];
    });
    const markdown = [
      table(["process", "wall p50", "wall p95", "wall vs node -e 0", "CPU p50 (all threads)", "CPU vs floor", "target", "verdict"], rows),
      "",
      `${ROUNDS} interleaved rounds (one process per case per round, order reversed every other round); load average ${load.toFixed(1)} at start and ` +
        `${loadAfter.toFixed(1)} at the end on ${cpus().length} cores. Wall times stretch with the load; the ratios and CPU times much less. ` +
        `The in-thread engine against the shipped worker engine, CPU p50: ${fmt(stats.inline.cpu.p50, 0)} against ${fmt(stats.shipped.cpu.p50, 0)} for \`return 1\`, ` +
        `${fmt(stats.computeInline.cpu.p50, 0)} against ${fmt(stats.compute.cpu.p50, 0)} for the CPU-bound script, so under \`--liftoff-only\` its guest computed ` +
        `${((stats.computeInline.cpu.p50 - stats.inline.cpu.p50) / (stats.compute.cpu.p50 - stats.shipped.cpu.p50)).toFixed(1)}x as long.`,
      "",
      `**Timeline of the shipped \`mcpvm run -e 'return 1'\`** (\`MCPVM_TRACE_STARTUP=1\`, ms since the process started, median of ${TIMELINE_RUNS} runs right after the rounds; ` +
        "the worker thread's own steps are the \"worker: …\" lines; started by bin/mcpvm.js before the CLI loads, it boots on another core while the main thread loads the engine, the command and the host):",
      "",
      table(["step", "ms (p50)", "ms (p95)", "main thread CPU so far (p50)"], timeline.map((step) => [step.step, fmt(step.p50, 0), fmt(step.p95, 0), step.mainCpu === undefined ? "" : fmt(step.mainCpu, 0)])),
      "",
      timelineReading(timeline, stats.shipped.cpu.p50),
      "",
      WHERE_THE_REST_GOES,
      "",
      WHAT_THE_TRIES_SHOWED,
    ].join("\n");
    return { title: "CLI: whole-process time of a trivial `mcpvm run`", markdown, data: { ...stats, rounds: ROUNDS, loadAverage: [load, loadAfter], timeline } };
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(plainHome, { recursive: true, force: true });
    for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
    if (beforeHome !== undefined) await rm(beforeHome, { recursive: true, force: true });
    await rm(variants, { recursive: true, force: true });
  }
}
