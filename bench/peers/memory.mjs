// Memory per live sandbox, one engine per child process (so nothing else's heap counts): ten
// sandboxes alive at once, each having built the same ~0.25 MB array, RSS sampled every 5 ms;
// (peak − baseline before the engine loaded its first sandbox) ÷ 10. Usage: node memory.mjs <engine> [warmed].
// With `warmed` (run with --expose-gc), the engine is loaded and warmed first by sequential sandboxes
// of the same program, all disposed, and the baseline is taken after that (collected): the engine's
// one-time load (its code, JIT tiers, glue) is then reported apart (oneTimeMb) from what each live
// sandbox holds.
import vm from "node:vm";

const DIST = new URL("../../dist/", import.meta.url).href;
const N = 10;
const BUILD = "globalThis.keep = new Array(30000).fill(0).map((_, i) => i); keep.length";

let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));

/** Until all N sandboxes are in their host call; a peer that never runs N at once fails with how many it did. */
async function waitAll(arrived) {
  const deadline = Date.now() + 60_000;
  while (arrived() < N) {
    if (Date.now() > deadline) {
      process.stderr.write(`only ${arrived()} of ${N} sandboxes reached their host call within 60 s (the engine ran no more at once)\n`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const ENGINES = {
  "node:vm": async () => {
    const contexts = Array.from({ length: N }, () => vm.createContext({}));
    for (const context of contexts) vm.runInContext(BUILD, context);
    sample();
    return () => contexts.length;
  },
  "quickjs-emscripten": async () => {
    const { getQuickJS } = await import("quickjs-emscripten");
    const QuickJS = await getQuickJS();
    const live = Array.from({ length: N }, () => {
      const runtime = QuickJS.newRuntime();
      const ctx = runtime.newContext();
      ctx.unwrapResult(ctx.evalCode(BUILD)).dispose();
      return { runtime, ctx };
    });
    sample();
    return () => live.forEach(({ runtime, ctx }) => (ctx.dispose(), runtime.dispose()));
  },
  "isolated-vm": async () => {
    const { default: ivm } = await import("isolated-vm");
    const live = [];
    for (let i = 0; i < N; i++) {
      const isolate = new ivm.Isolate({ memoryLimit: 16 });
      const context = await isolate.createContext();
      await context.eval(BUILD);
      live.push(isolate);
    }
    sample();
    return () => live.forEach((isolate) => isolate.dispose());
  },
  "@utcp/code-mode": async () => {
    const { CodeModeUtcpClient } = await import("@utcp/code-mode");
    const { addFunctionToUtcpDirectCall } = await import("@utcp/direct-call");
    console.log = () => {};
    let arrived = 0;
    addFunctionToUtcpDirectCall("memManual", async () => ({
      utcp_version: "1.0.0",
      manual_version: "1.0.0",
      tools: [{ name: "meet", description: "waits for all", inputs: { type: "object", properties: {} }, outputs: { type: "object" }, tags: [], tool_call_template: { call_template_type: "direct-call", callable_name: "memMeet" } }],
    }));
    addFunctionToUtcpDirectCall("memMeet", async () => {
      arrived++;
      await waitAll(() => arrived);
      sample();
      return arrived;
    });
    const client = await CodeModeUtcpClient.create();
    await client.registerManual({ name: "mem", call_template_type: "direct-call", callable_name: "memManual" });
    await Promise.all(Array.from({ length: N }, () => client.callToolChain(`${BUILD}; return mem.meet({});`)));
    return () => {};
  },
  // The worker engine in its default shared mode (several runs per thread), and in `mcpvm run`'s thread mode.
  mcpvm: () => mcpvmEngine("quickjs.js", "createQuickJsEngine", { workerMode: "shared" }),
  "mcpvm-thread": () => mcpvmEngine("quickjs.js", "createQuickJsEngine", { workerMode: "thread" }),
  "mcpvm-inline": () => mcpvmEngine("quickjs-inline.js", "createQuickJsInlineEngine"),
};

/** Sequential sandboxes of the same program, each disposed, before a `warmed` measurement. */
const WARM = {
  "node:vm": async () => {
    for (let i = 0; i < 100; i++) vm.runInContext(BUILD, vm.createContext({}));
  },
  "quickjs-emscripten": async () => {
    const { getQuickJS } = await import("quickjs-emscripten");
    const QuickJS = await getQuickJS();
    for (let i = 0; i < 100; i++) {
      const runtime = QuickJS.newRuntime();
      const ctx = runtime.newContext();
      ctx.unwrapResult(ctx.evalCode(BUILD)).dispose();
      ctx.dispose();
      runtime.dispose();
    }
  },
  "isolated-vm": async () => {
    const { default: ivm } = await import("isolated-vm");
    for (let i = 0; i < 20; i++) {
      const isolate = new ivm.Isolate({ memoryLimit: 16 });
      const context = await isolate.createContext();
      await context.eval(BUILD);
      isolate.dispose();
    }
  },
  "@utcp/code-mode": async () => {
    const { CodeModeUtcpClient } = await import("@utcp/code-mode");
    const log = console.log;
    console.log = () => {};
    const client = await CodeModeUtcpClient.create();
    for (let i = 0; i < 20; i++) await client.callToolChain(`${BUILD}; return 1;`);
    console.log = log;
  },
  mcpvm: () => warmMcpvm("quickjs.js", "createQuickJsEngine", { workerMode: "shared" }),
  "mcpvm-thread": () => warmMcpvm("quickjs.js", "createQuickJsEngine", { workerMode: "thread" }),
  "mcpvm-inline": () => warmMcpvm("quickjs-inline.js", "createQuickJsInlineEngine"),
};

async function warmMcpvm(file, factory, fixed = {}) {
  const create = (await import(`${DIST}src/sandbox/engines/${file}`))[factory];
  const engine = await create({ ...fixed });
  const modules = { sync: { meet: () => 0 } };
  for (let i = 0; i < 100; i++) {
    const result = await engine.run({ code: `${BUILD.replace("globalThis.keep =", "const keep =")}; return require("host:sync").meet();`, modules });
    if (!result.ok) throw new Error(`mcpvm: ${result.error.code}: ${result.error.message}`);
  }
  await engine.dispose();
}

/** Ten runs of one of mcpvm's engines, each blocked in a host call until all ten are live. */
async function mcpvmEngine(file, factory, fixed = {}) {
  const create = (await import(`${DIST}src/sandbox/engines/${file}`))[factory];
  const engine = await create({ maxWorkers: N, maxInstances: N, ...fixed });
  let arrived = 0;
  const modules = {
    sync: {
      meet: async () => {
        arrived++;
        await waitAll(() => arrived);
        sample();
        return arrived;
      },
    },
  };
  const results = await Promise.all(Array.from({ length: N }, () => engine.run({ code: `${BUILD.replace("globalThis.keep =", "const keep =")}; return require("host:sync").meet();`, modules })));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`mcpvm: ${failed[0].error.code}: ${failed[0].error.message}`);
  return () => engine.dispose();
}

const name = process.argv[2];
const warmed = process.argv[3] === "warmed";
const beforeEngine = process.memoryUsage().rss;
if (warmed) {
  await WARM[name]();
  // Workers kept warm and idle instances settle; then what the warm-up left behind is collected.
  await new Promise((resolve) => setTimeout(resolve, 600));
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const baseline = process.memoryUsage().rss;
peak = baseline;
const timer = setInterval(sample, 5);
const dispose = await ENGINES[name]();
clearInterval(timer);
sample();
await dispose();
process.stdout.write(JSON.stringify({ baselineMb: baseline / 1e6, peakMb: peak / 1e6, perSandboxMb: (peak - baseline) / 1e6 / N, oneTimeMb: (baseline - beforeEngine) / 1e6 }));
process.exit(0);
