// MCP through the whole stack (issue 3 targets), measured as ratios within one run:
// (a) guest -> MCP call latency vs a direct SDK Client.callTool (sequential echo on server-everything,
//     interleaved; target p50 ratio <= 1.10);
// (b) a $batch of 100 calls to a tool with 5 ms latency vs 100 sequential guest calls (target >= 15x, issue 15);
// (c) start-up with 20 configured servers vs none: processes spawned (target 0) and the time to open
//     the host and run a trivial script (target <= 1.1x).
import { cpus, loadavg } from "node:os";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";
import { createEngine } from "../dist/src/sandbox/select.js";
import { fmt, summarize, table, time, verdict } from "./_stats.mjs";
import { childPids, EVERYTHING, FIXTURE, makeHome, mustSucceed, pastRacyWindow, sequentialEcho } from "./_mcp-common.mjs";
import { LAYERS, layers } from "./_mcp-layers.mjs";

const LATENCY = { rounds: 40, callsPerRound: 25, warmup: 3, target: 1.1 };
// Loops as a user writes them (issue 15): one run of N sequential calls against N direct calls.
const LOOPS = { sizes: [300, 1000], rounds: 5, target: 1.1 };
// Warm-up rounds of each kind first: the first few runs of a fresh host are JIT warm-up (3-4x slower), not $batch.
const BATCH = { rounds: 9, warmup: 5, calls: 100, latencyMs: 5, target: 15 };
const STARTUP = { rounds: 16, warmup: 2, servers: 20, target: 1.1 };

/**
 * A host on the worker engine in thread mode (one run per worker thread, `mcpvm run`'s mode); the
 * home's `quickjs` engine is otherwise the default shared mode (several runs per worker thread).
 */
const openThreadHost = (env) => McpvmHost.open({ env, startedEngine: createEngine("quickjs", { quickjs: { workerMode: "thread" } }) });

/**
 * (a) Per round: a run that only requires the module (the fixed cost of a run), a run making K
 * sequential echo calls, and K direct Client.callTool echoes on a second server-everything process.
 * Guest per-call latency = (K-call run - empty run) / K, so the run's own cost is not counted.
 */
async function callLatency() {
  const server = { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } };
  const home = await makeHome(server);
  const host = await McpvmHost.open({ env: home.env });
  // The same calls from the in-thread engine (quickjs-inline), interleaved in the same rounds.
  const inlineHome = await makeHome(server, "quickjs-inline");
  const inlineHost = await McpvmHost.open({ env: inlineHome.env });
  // And from thread mode (`mcpvm run`), interleaved too.
  const threadHome = await makeHome(server);
  const threadHost = await openThreadHost(threadHome.env);
  const client = new Client({ name: "mcpvm-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
  await pastRacyWindow();
  const k = LATENCY.callsPerRound;
  const direct = async () => {
    for (let i = 0; i < k; i += 1) await client.callTool({ name: "echo", arguments: { message: `ping ${i}` } });
  };
  const empty = (h) => async () => mustSucceed(await h.run(sequentialEcho(0)));
  const guest = (h) => async () => mustSucceed(await h.run(sequentialEcho(k)));
  try {
    for (let i = 0; i < LATENCY.warmup; i += 1) {
      for (const h of [host, inlineHost, threadHost]) {
        await empty(h)();
        await guest(h)();
      }
      await direct();
    }
    const guestPerCall = [];
    const inlinePerCall = [];
    const threadPerCall = [];
    const directPerCall = [];
    const roundRatios = [];
    const inlineRatios = [];
    const threadRatios = [];
    for (let round = 0; round < LATENCY.rounds; round += 1) {
      // Rotate the order so a burst of load from elsewhere hits each side alike.
      const steps = [
        async () => {
          const base = await time(empty(host));
          guestPerCall.push(Math.max(0, (await time(guest(host))) - base) / k);
        },
        async () => {
          const base = await time(empty(inlineHost));
          inlinePerCall.push(Math.max(0, (await time(guest(inlineHost))) - base) / k);
        },
        async () => {
          const base = await time(empty(threadHost));
          threadPerCall.push(Math.max(0, (await time(guest(threadHost))) - base) / k);
        },
        async () => directPerCall.push((await time(direct)) / k),
      ];
      if (round % 2 === 1) steps.reverse();
      for (const step of steps) await step();
      roundRatios.push(guestPerCall[round] / directPerCall[round]);
      inlineRatios.push(inlinePerCall[round] / directPerCall[round]);
      threadRatios.push(threadPerCall[round] / directPerCall[round]);
    }
    // The per-round ratio compares two measurements taken moments apart: steadier on a busy machine.
    return {
      guest: summarize(guestPerCall),
      direct: summarize(directPerCall),
      roundRatio: summarize(roundRatios),
      inline: { guest: summarize(inlinePerCall), roundRatio: summarize(inlineRatios) },
      thread: { guest: summarize(threadPerCall), roundRatio: summarize(threadRatios) },
    };
  } finally {
    await client.close();
    await host.close();
    await inlineHost.close();
    await threadHost.close();
    await home.cleanup();
    await inlineHome.cleanup();
    await threadHome.cleanup();
  }
}

/**
 * (a2) Loops of 300 and 1,000 sequential echo calls: the whole guest run (start-up included) against
 * the same number of direct Client.callTool calls on a second server-everything process, interleaved.
 * With the defaults: no rate limit, and 1,000 fits the default tool-call budget.
 */
async function loops() {
  const server = { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } };
  const home = await makeHome(server);
  const host = await McpvmHost.open({ env: home.env });
  const inlineHome = await makeHome(server, "quickjs-inline");
  const inlineHost = await McpvmHost.open({ env: inlineHome.env });
  const threadHome = await makeHome(server);
  const threadHost = await openThreadHost(threadHome.env);
  const client = new Client({ name: "mcpvm-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
  await pastRacyWindow();
  const out = {};
  try {
    for (const n of LOOPS.sizes) {
      const direct = async () => {
        for (let i = 0; i < n; i += 1) await client.callTool({ name: "echo", arguments: { message: `ping ${i}` } });
      };
      const guest = (h) => async () => {
        if (mustSucceed(await h.run(sequentialEcho(n))) !== n) throw new Error("loop incomplete");
      };
      await guest(host)();
      await guest(inlineHost)();
      await guest(threadHost)();
      await direct();
      const g = [];
      const gi = [];
      const gt = [];
      const d = [];
      for (let round = 0; round < LOOPS.rounds; round += 1) {
        const steps = [
          async () => g.push(await time(guest(host))),
          async () => gi.push(await time(guest(inlineHost))),
          async () => gt.push(await time(guest(threadHost))),
          async () => d.push(await time(direct)),
        ];
        if (round % 2 === 1) steps.reverse();
        for (const step of steps) await step();
      }
      out[n] = { guest: summarize(g), direct: summarize(d), inline: summarize(gi), thread: summarize(gt) };
    }
    return out;
  } finally {
    await client.close();
    await host.close();
    await inlineHost.close();
    await threadHost.close();
    await home.cleanup();
    await inlineHome.cleanup();
    await threadHome.cleanup();
  }
}

/** (b) 100 calls to a 5 ms tool: one $batch (default concurrency) vs a loop of sequential calls, interleaved. */
async function batchVsSequential() {
  const home = await makeHome({ slow: { command: process.execPath, args: [FIXTURE, "--latency", String(BATCH.latencyMs)], confirm: "never" } });
  const host = await McpvmHost.open({ env: home.env });
  const n = BATCH.calls;
  const args = `Array.from({ length: ${n} }, (_, i) => ({ text: "item " + i }))`;
  const batchCode = `const r = require("host:mcp-slow").$batch("echo", ${args}); if (!r.every((x) => x.ok)) throw new Error("batch item failed"); return r.length;`;
  const sequentialCode = `const s = require("host:mcp-slow"); let n = 0; for (const a of ${args}) { s.echo(a); n++; } return n;`;
  try {
    for (let i = 0; i < BATCH.warmup; i += 1) {
      mustSucceed(await host.run(batchCode));
      mustSucceed(await host.run(sequentialCode));
    }
    const batch = [];
    const sequential = [];
    for (let round = 0; round < BATCH.rounds; round += 1) {
      const steps = [async () => batch.push(await time(async () => mustSucceed(await host.run(batchCode)))), async () => sequential.push(await time(async () => mustSucceed(await host.run(sequentialCode))))];
      if (round % 2 === 1) steps.reverse();
      for (const step of steps) await step();
    }
    return { batch: summarize(batch), sequential: summarize(sequential) };
  } finally {
    await host.close();
    await home.cleanup();
  }
}

/** (c) Open the host, run a trivial script, close: with 20 configured (approved) servers vs none. */
async function startup() {
  const servers = {};
  for (let i = 1; i <= STARTUP.servers; i += 1) servers[`server-${String(i).padStart(2, "0")}`] = { command: process.execPath, args: [FIXTURE] };
  const many = await makeHome(servers);
  const none = await makeHome({});
  const spawned = [];
  const once = async (home) => {
    const before = childPids().length;
    const host = await McpvmHost.open({ env: home.env });
    try {
      mustSucceed(await host.run("return 1 + 1;"));
      await host.requireMcp();
      spawned.push(childPids().length - before);
    } finally {
      await host.close();
    }
  };
  try {
    for (let i = 0; i < STARTUP.warmup; i += 1) {
      await once(none);
      await once(many);
    }
    const withServers = [];
    const withoutServers = [];
    for (let round = 0; round < STARTUP.rounds; round += 1) {
      const steps = [async () => withServers.push(await time(() => once(many))), async () => withoutServers.push(await time(() => once(none)))];
      if (round % 2 === 1) steps.reverse();
      for (const step of steps) await step();
    }
    return { many: summarize(withServers), none: summarize(withoutServers), maxSpawned: Math.max(...spawned) };
  } finally {
    await many.cleanup();
    await none.cleanup();
  }
}

export default async function () {
  const loadAtStart = loadavg()[0];
  const latency = await callLatency();
  const loop = await loops();
  const layer = await layers();
  const batch = await batchVsSequential();
  const start = await startup();

  const latencyRatio = latency.guest.p50 / latency.direct.p50;
  const batchSpeedup = batch.sequential.p50 / batch.batch.p50;
  const startRatio = start.many.p50 / start.none.p50;
  const rows = [
    [
      "(a) guest echo vs direct Client.callTool, p50 per call [quickjs: shared mode, the default]",
      `${fmt(latency.guest.p50, 3)} vs ${fmt(latency.direct.p50, 3)} (p95 ${fmt(latency.guest.p95, 3)} vs ${fmt(latency.direct.p95, 3)})`,
      `ratio ${latencyRatio.toFixed(2)} (median per-round ratio ${latency.roundRatio.p50.toFixed(2)})`,
      `<= ${LATENCY.target}`,
      verdict(latencyRatio <= LATENCY.target),
    ],
    [
      "(a) the same on the in-thread engine (quickjs-inline), same rounds",
      `${fmt(latency.inline.guest.p50, 3)} vs ${fmt(latency.direct.p50, 3)} (p95 ${fmt(latency.inline.guest.p95, 3)} vs ${fmt(latency.direct.p95, 3)})`,
      `ratio ${(latency.inline.guest.p50 / latency.direct.p50).toFixed(2)} (median per-round ratio ${latency.inline.roundRatio.p50.toFixed(2)})`,
      `<= ${LATENCY.target}`,
      verdict(latency.inline.guest.p50 / latency.direct.p50 <= LATENCY.target),
    ],
    [
      "(a) the same on the worker engine in thread mode (`mcpvm run`), same rounds",
      `${fmt(latency.thread.guest.p50, 3)} vs ${fmt(latency.direct.p50, 3)} (p95 ${fmt(latency.thread.guest.p95, 3)} vs ${fmt(latency.direct.p95, 3)})`,
      `ratio ${(latency.thread.guest.p50 / latency.direct.p50).toFixed(2)} (median per-round ratio ${latency.thread.roundRatio.p50.toFixed(2)})`,
      `<= ${LATENCY.target}`,
      verdict(latency.thread.guest.p50 / latency.direct.p50 <= LATENCY.target),
    ],
    ...LOOPS.sizes.flatMap((n) =>
      [
        ["quickjs, shared", loop[n].guest],
        ["quickjs-inline", loop[n].inline],
        ["quickjs, thread mode", loop[n].thread],
      ].map(([kind, guest]) => {
        const ratio = guest.p50 / loop[n].direct.p50;
        const added = ((guest.p50 - loop[n].direct.p50) / n) * 1000;
        return [
          `(a2) one run of ${n} sequential guest echo calls vs ${n} direct Client.callTool, whole run, p50 [${kind}]`,
          `${fmt(guest.p50, 1)} vs ${fmt(loop[n].direct.p50, 1)} (p95 ${fmt(guest.p95, 1)} vs ${fmt(loop[n].direct.p95, 1)})`,
          `ratio ${ratio.toFixed(2)} (${added.toFixed(0)} µs added per call)`,
          `<= ${LOOPS.target}`,
          verdict(ratio <= LOOPS.target),
        ];
      }),
    ),
    [
      `(b) $batch of ${BATCH.calls} x ${BATCH.latencyMs} ms tool vs ${BATCH.calls} sequential guest calls, p50`,
      `${fmt(batch.batch.p50, 1)} vs ${fmt(batch.sequential.p50, 1)}`,
      `${batchSpeedup.toFixed(1)}x faster`,
      `>= ${BATCH.target}x`,
      verdict(batchSpeedup >= BATCH.target),
    ],
    [`(c) processes spawned at start-up with ${STARTUP.servers} configured servers`, String(start.maxSpawned), String(start.maxSpawned), "0", verdict(start.maxSpawned === 0)],
    [
      `(c) open host + trivial run + close, ${STARTUP.servers} servers vs none, p50`,
      `${fmt(start.many.p50, 1)} vs ${fmt(start.none.p50, 1)}`,
      `ratio ${startRatio.toFixed(2)}`,
      `<= ${STARTUP.target}`,
      verdict(startRatio <= STARTUP.target),
    ],
  ];
  const us = (v) => `${v.toFixed(0)} µs`;
  const layerRows = [
    ["SDK v2 Client.callTool, its own connection (the baseline)", "direct", undefined],
    ["ClientManager.callToolRaw (our stdio transport and connection, deadline, timing event, idle timer)", "raw", "direct"],
    ["ClientManager.callTool (+ CallToolResult → guest value)", "converted", "raw"],
    ["host module function (+ current catalog, argument validation, confirm policy, tool-call budget, approval re-check, redaction)", "module", "converted"],
    ["guest call in a run on the worker engine, shared mode (+ guest codec, a string message each way between the worker's and the main thread's event loops, asyncify suspend and resume, reply encoding)", "guest", "module"],
    ["guest call in a run on the in-thread engine (+ guest codec, asyncify suspend and resume of the guest's stack, reply encoding)", "inline", "module"],
  ].map(([label, key, prev]) => [
    label,
    us(layer.cpu[key]),
    prev === undefined ? "" : us(layer.cpu[key] - layer.cpu[prev]),
    us(layer.wall[key]),
    prev === undefined ? "" : us(layer.wall[key] - layer.wall[prev]),
  ]);
  const markdown = [
    table(["measure", "values", "result", "target", "verdict"], rows),
    "",
    `**Where a guest call's µs go** (${LAYERS.calls} sequential echo calls on server-everything entered at each layer, ${LAYERS.rounds} interleaved rounds after ${LAYERS.warmup} warm-up rounds, median; ` +
      "CPU = this process's user+system time, all threads, per call; the server's own CPU is not in it):",
    "",
    table(["entered at", "CPU per call", "CPU added by this layer", "wall per call", "wall added"], layerRows),
    "",
    `(a) ${LATENCY.rounds} interleaved rounds of ${LATENCY.callsPerRound} sequential echo calls on two server-everything processes; ` +
      "the guest's per-call figure is (run with the calls - run without them) / calls, so the run's own start-up is excluded. " +
      `(a2) ${LOOPS.rounds} interleaved rounds per size, default settings (no rate limit; 1,000 calls fit the default per-run tool-call budget); the run's start-up is included. ` +
      `(b) ${BATCH.rounds} interleaved rounds after ${BATCH.warmup} warm-up rounds of each, on the fixture server with --latency ${BATCH.latencyMs}; $batch at its default concurrency. ` +
      `(c) ${STARTUP.rounds} interleaved rounds; each opens a host (quickjs engine), runs \`return 1 + 1\`, builds the MCP service and closes. ` +
      `Load average at the start of this section: ${loadAtStart.toFixed(1)} on ${cpus().length} cores.`,
    "",
    `**Reading (issue 15).** The µs of a guest call, by layer (CPU, which moves far less with load than wall): the MCP round trip itself (SDK v2 Client, JSON-RPC over stdio, zod validation of the result) is the baseline; our raw path and connection cost less than the SDK client (no schema parse); the service's checks (current catalog, the argument validator compiled once per listing, confirm policy, tool-call budget, one plain stat for the approval re-check, redaction, flow labels) add tens of µs; then the sandbox. ` +
      "On the worker engine (quickjs, shared mode: the default but for `mcpvm run`) crossing threads is the largest share: one string message each way between the worker's event loop and the main thread's, so a call wakes both threads where a direct call wakes the main thread alone. " +
      "Profiled in wave 13 (perf on both threads, and timestamps, a trivial host call of ~100 µs at load 3–4): about 40 µs are the two wake-ups (under perf the worker's postMessage alone took ~25 µs, most of it the kernel switching threads), the worker's part from the reply's arrival to its next call 45–55 µs and the main thread's from the call to its reply 18–23 µs: the code of a whole ~20 µs in-thread call, run about twice as slowly in bursts that start on a thread that has just slept (on the in-thread engine the guest's part of a call took 21 µs when the host answered at once, 58 µs after a 1 ms sleep). " +
      "Cut in wave 13: the call, its reply and its events cross as strings instead of objects (bench/_shared-floor.mjs: a bare crossing 53.5 against 35.4 µs), their numbers read digit by digit (the split-based decode cost ~8 µs a call on the main thread under perf), and a call goes to the module resolved for it without a one-entry modules object; together a trivial host call went from 121.3 to 105.3 µs wall and 119.1 to 100.1 µs CPU (bench/_crossing-ab.mjs, 21 interleaved rounds, load 5.7–6.1), and from 95.4 to 73.3 µs wall, 104.2 to 82.2 µs CPU at load 1.1; a guest echo call on server-everything from 674 to 607 µs (bench/_echo-ab.mjs, 15 rounds of 300 calls, load 1.5; direct SDK calls 389 µs in the same rounds). Measured and left: the worker polling for its reply for up to 50 µs before sleeping (113 → 118 µs; 200 µs: 123 → 144 µs) and posting its call only once its stack has unwound (145.8 → 169.6 µs), both slower on this shared 2-core machine. " +
      "Thread mode (`mcpvm run`) posts the call on a MessagePort and its worker waits in Atomics.wait (spinning first) for the reply. " +
      "The in-thread engine (quickjs-inline) removes the crossing: QuickJS's asyncify build suspends the guest's wasm stack in the host call on the main thread; what it adds is the guest side (the module object and argument checks, JSON of the arguments and the reply in QuickJS's interpreter, about 15 µs of guest work measured alone, and the stack's unwind and rewind) and the host call's dispatch. " +
      "Cut in wave 7 (the same checks on every call): a call's host context built field by field (Node 20's V8 takes a slow path, several µs, for an object literal that spreads another first and adds fields after), a loaded module called in the same tick, the approval stat without bigint, the first stdin message of a tick written at once (the server starts while our turn finishes), the activity line masked and formatted when the log writes instead of inside the call, limits validated once per host, and in the guest a string reply sliced out of its envelope instead of parsed and module functions found without a Proxy trap. " +
      "Cut in wave 12 (profiled first: in-thread, QuickJS's interpreter frame function was the largest self time of a call, the asyncify unwind and rewind next to nothing — a host function answering without suspending the guest cost about the same as one that suspends it): a string reply crosses raw (U+0001 and the text, no JSON on either side) unless it holds a NUL, a lone surrogate or events, and a module function reads its label once per module, so a call without { onProgress } runs a few interpreted calls fewer; together a trivial in-thread host call went from 26.5 to 15.7 µs of CPU (bench/_crossing-ab.mjs, one process, load 5.6). Measured and left: the worker's request by a shared-memory mailbox watched with Atomics.waitAsync wakes the main thread no sooner than a MessagePort message (bench/_wake-probe.mjs: 45.5–47.7 against 44.7–49.3 µs a call, load 8). " +
      "Cut in wave 19 (profiled: of a trivial in-thread call's ~7 µs sampled, ~5 were wasm, and JSON.stringify with the codec's replacer (2.2 µs) and JSON.parse of the reply's envelope (1.4 µs) were most of the guest's part, QuickJS's JSON having a fixed cost of about a µs a call): a value reply without events crosses alone (U+0002 and its JSON, no envelope to parse), primitive arguments are written without the replacer (it acts only on bytes), and a primitive reply is encoded without it on the host; a trivial in-thread call 9.5 -> 7.5 µs of CPU, shared mode 32.9 -> 29.8 µs (bench/_shared-warm.mjs, 12 rounds in alternating processes, load 3.6-4.1). " +
      "Cut in wave 31 (shared mode, the waited call; `src/sandbox/engines/quickjs-shared-waited.ts`): a run alone on its thread waits for its host call's reply in shared memory (Atomics.wait; replies up to 16,384 UTF-16 units) instead of unwinding to the worker's event loop, so there is no unwind, no rewind and no reply message; anything else sent to the thread (a new run, a stop or limit, a live event, a larger reply, closing) wakes the worker first, which then takes the message path. A trivial host call went from 42.8 to 36.9 µs wall and 41.0 to 35.6 µs CPU (bench/_shared-warm.mjs, 8 rounds in alternating processes, load 11.9), and from 43.2 to 35.8 and 41.4 to 35.1 µs (10 rounds, load 16); echo calls on server-everything (bench/_echo-ab.mjs, 20 rounds in each order, load 15-18) from 1,254 to 1,017 and 578 to 475 µs CPU a call, a load that hides a gain of this size. In the table above, measured after it, the shared-mode echo rows are level with the run before it (1.57 -> 1.63 at (a), within round-to-round noise): a server-everything echo is mostly the server's and the SDK's time. " +
      "What stands between the in-thread engine and 1.10: the guest-side work per call (interpreted QuickJS in the asyncify build), and the direct client getting faster with JIT warm-up sooner than our longer path (bench/_percall-curve.mjs shows it round by round). Each section waits out the approvals file's racy window first (a freshly written file is re-read on every call for 2 s, which no real session meets). " +
      "Rate limiting is off by default, so 300 and 1,000-call loops run at full speed. " +
      "(c) Start-up with 20 servers (wave 20): no server starts, so what they add is the work done per configured server. Profiled (bench/_startup-ab.mjs: (c) alone, per-thread CPU from /proc; bench/_startup-engine.mjs: the sandbox's share alone), it was on every thread: the worker compiled the `tools` prelude (2.4 KB at ~10 characters a µs, ~0.25 ms in every run even with no server) and copied and parsed a ~2.9 KB manifest of 20 lazy modules and their labels, whatever the run used; the main thread validated `mcpServers` with zod on each host open (~0.1 ms) and built the tables, the service's 20 slots and closed them (tens of µs each); and the garbage of all that kept V8's helper threads busier. " +
      "Cut: the `tools` global is a bootstrap piece compiled ahead into the sandbox image (RunRequest.toolsGlobal), each server's object made on first use (any other look at `tools` makes them all and freezes it, so a script sees the same object); the run manifest's module and tools tables stay text until the run first requires a host module or looks at `tools`, and the asyncify engines (shared mode, in-thread) copy them into QuickJS only then; `mcpServers`' validation is reused while its JSON text is unchanged. " +
      "The sandbox's share (bench/_startup-engine.mjs, 3 alternating processes per build, 300 rounds, load 4.0–4.2): a trivial run with 20 servers' modules and tools table against none went from +425 to +810 µs wall p50 (1.26–1.92 against 0.84–1.11 ms) to +90 to +154 µs (0.53–0.64 against 0.44–0.48 ms), and the CPU it added on the other threads (the worker, V8's helpers) from ~0.8 ms to ~0.2 ms. " +
      "The whole of (c) (bench/_startup-ab.mjs, 8 alternating process pairs of 100 rounds, load 4–9): the added time from 2.39 to 1.79 ms (medians of the per-process p50s), ratio 1.25 to 1.20; the main thread's added CPU went only from ~0.82 to ~0.72 ms and is now most of it: no one step of it is large (the config's copies, the tables, the service's 20 slots and their close, tens of µs each, and the GC of their garbage), and at this load the wall figure moves by more than the whole remainder between processes.",
  ].join("\n");
  return {
    title: "MCP: call latency, batch, start-up with many servers",
    markdown,
    data: { latency, loops: loop, layers: layer, batch, startup: start, ratios: { latencyRatio, batchSpeedup, startRatio } },
  };
}
