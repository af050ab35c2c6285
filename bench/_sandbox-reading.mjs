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
  ];
}
