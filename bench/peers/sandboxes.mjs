// The sandbox half of bench/peers: the same three programs on mcpvm's engine and on the sandboxes
// people compare it with. Cases (every one p50/p95 over the same number of samples, warm-up first):
// - cold: a new sandbox, `return 1` (or `1`), disposed — for mcpvm a new engine through its first result and dispose
//   (engines of one process share warm workers, so this is a fresh runtime in a running worker, not a thread start);
// - fresh context per run, back to back: a new context in an engine that is already up (what one run costs when runs queue);
// - host call round trip: (loop of 2,000 calls to a host function that does nothing − the same loop without the call) / 2,000.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
// isolated-vm and code-mode are imported where used: isolated-vm 6 is a native addon for Node >= 22,
// and one peer that cannot load must not take the others down.
import { summarize } from "../_stats.mjs";

const DIST = new URL("../../dist/", import.meta.url).href;
const CALLS = 2_000;
const COLD = 30;
const WARM = 200;
const HOST_ROUNDS = 9;

/**
 * After the warm-up, one-time work it set off in the background ends before the timed samples, for
 * every engine alike: mcpvm's thread mode starts a warm worker to replace the one the first run took,
 * a thread start of tens of ms of CPU (over a second at load 15) that otherwise runs beside every cold
 * sample on 2 cores; a worker takes its sandbox image once idle. `settle` waits for an engine's own
 * background work (mcpvm: no worker thread starting), then a short pause; peers have none to wait for.
 */
const SETTLE_MS = 200;

async function sample(n, fn, settle = async () => {}) {
  for (let i = 0; i < Math.min(5, n); i++) await fn();
  await settle();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return summarize(times);
}

/** µs per host call by the difference method, in rounds. */
async function hostCall(run) {
  await run(true);
  await run(false);
  const perCall = [];
  for (let r = 0; r < HOST_ROUNDS; r++) {
    const start = performance.now();
    await run(true);
    const mid = performance.now();
    await run(false);
    const end = performance.now();
    perCall.push((((mid - start) - (end - mid)) * 1000) / CALLS);
  }
  return summarize(perCall);
}

const loop = (withCall, call = "noop()") => `{ let s = 0; for (let i = 0; i < ${CALLS}; i++) { ${withCall ? call : "s += i"}; } }`;

export const nodeVm = {
  name: "node:vm",
  version: process.version,
  cold: () => sample(COLD, () => vm.runInContext("1", vm.createContext({}))),
  fresh: () => sample(WARM, () => vm.runInContext("1", vm.createContext({}))),
  hostCall: async () => {
    const context = vm.createContext({ noop: () => null });
    return hostCall((withCall) => vm.runInContext(loop(withCall), context));
  },
};

export const isolatedVm = async (version) => {
  const { default: ivm } = await import("isolated-vm");
  return {
  name: "isolated-vm",
  version,
  cold: () =>
    sample(COLD, async () => {
      const isolate = new ivm.Isolate({ memoryLimit: 16 });
      const context = await isolate.createContext();
      await context.eval("1");
      isolate.dispose();
    }),
  fresh: async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    const result = await sample(WARM, async () => {
      const context = await isolate.createContext();
      await context.eval("1");
      context.release();
    });
    isolate.dispose();
    return result;
  },
  hostCall: async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    const context = await isolate.createContext();
    await context.global.set("noop", new ivm.Callback(() => null));
    const result = await hostCall((withCall) => context.eval(loop(withCall)));
    isolate.dispose();
    return result;
  },
  };
};

export const quickjsRaw = async (version) => {
  const { getQuickJS } = await import("quickjs-emscripten");
  const QuickJS = await getQuickJS();
  const evalIn = (ctx, code) => {
    const handle = ctx.unwrapResult(ctx.evalCode(code));
    handle.dispose();
  };
  return {
    name: "quickjs-emscripten",
    version,
    cold: () =>
      sample(COLD, () => {
        const runtime = QuickJS.newRuntime();
        const ctx = runtime.newContext();
        evalIn(ctx, "1");
        ctx.dispose();
        runtime.dispose();
      }),
    fresh: async () => {
      const runtime = QuickJS.newRuntime();
      const result = await sample(WARM, () => {
        const ctx = runtime.newContext();
        evalIn(ctx, "1");
        ctx.dispose();
      });
      runtime.dispose();
      return result;
    },
    hostCall: async () => {
      const runtime = QuickJS.newRuntime();
      const ctx = runtime.newContext();
      const fn = ctx.newFunction("noop", () => undefined);
      ctx.setProp(ctx.global, "noop", fn);
      fn.dispose();
      const result = await hostCall((withCall) => evalIn(ctx, loop(withCall)));
      ctx.dispose();
      runtime.dispose();
      return result;
    },
  };
};

/** @utcp/code-mode runs each callToolChain in a new isolated-vm isolate: its "cold" and "fresh" are the same call. Its per-call console logging is silenced (in its favour). */
const codeMode = async (version) => {
  const { CodeModeUtcpClient } = await import("@utcp/code-mode");
  const { addFunctionToUtcpDirectCall } = await import("@utcp/direct-call");
  const quiet = async (fn) => {
    const log = console.log;
    console.log = () => {};
    try {
      return await fn();
    } finally {
      console.log = log;
    }
  };
  await quiet(async () => {
    addFunctionToUtcpDirectCall("benchManual", async () => ({
      utcp_version: "1.0.0",
      manual_version: "1.0.0",
      tools: [{ name: "noop", description: "does nothing", inputs: { type: "object", properties: {} }, outputs: { type: "object" }, tags: [], tool_call_template: { call_template_type: "direct-call", callable_name: "benchNoop" } }],
    }));
    addFunctionToUtcpDirectCall("benchNoop", async () => null);
  });
  const client = await quiet(() => CodeModeUtcpClient.create());
  await quiet(() => client.registerManual({ name: "bench", call_template_type: "direct-call", callable_name: "benchManual" }));
  const run = async (code) => {
    const out = await client.callToolChain(code);
    if (out.result === undefined && out.logs?.some((l) => /error/i.test(l))) throw new Error(`code-mode: ${out.logs.join("; ")}`);
  };
  return {
    name: "@utcp/code-mode",
    version,
    cold: () => quiet(() => sample(COLD, () => run("return 1"))),
    fresh: () => quiet(() => sample(WARM, () => run("return 1"))),
    hostCall: () => quiet(() => hostCall((withCall) => run(`${loop(withCall, "bench.noop({})")} return 0;`))),
  };
};

/**
 * mcpvm's QuickJS engines: the worker engine as the gateway, REPL and LLM tools create it (shared mode, several runs
 * per thread: the default), the same in thread mode (one run per thread: `mcpvm run`'s), and the in-thread engine
 * (`--engine quickjs-inline`). Each names its mode so MCPVM_QUICKJS_WORKERS in the environment cannot swap them.
 */
const ENGINE_MODULES = {
  mcpvm: ["quickjs.js", "createQuickJsEngine", { workerMode: "shared" }],
  "mcpvm-thread": ["quickjs.js", "createQuickJsEngine", { workerMode: "thread" }],
  "mcpvm-inline": ["quickjs-inline.js", "createQuickJsInlineEngine", {}],
  // The worker engine without its sandbox image (every sandbox built and freed), for before/after rounds (_image-rounds.mjs).
  "mcpvm-no-image": ["quickjs.js", "createQuickJsEngine", { sandboxSnapshots: false }],
  "mcpvm-inline-no-image": ["quickjs-inline.js", "createQuickJsInlineEngine", { sandboxSnapshots: false }],
};

export const mcpvm = async (version, name = "mcpvm") => {
  const [file, factory, fixed] = ENGINE_MODULES[name];
  const create = (await import(`${DIST}src/sandbox/engines/${file}`))[factory];
  const { sharedQuickJsWorkers } = await import(`${DIST}src/sandbox/engines/quickjs-shared-pool.js`);
  const { sharedPlacements } = await import(`${DIST}src/sandbox/engines/quickjs-shared-placement.js`);
  const starting = () => sharedQuickJsWorkers().starting + sharedPlacements().reduce((sum, placement) => sum + placement.counts.starting, 0);
  // Waits (up to 20 s) until no worker thread of the process is starting, in either mode (see sample).
  const settle = async () => {
    for (let waited = 0; starting() > 0 && waited < 20_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const createQuickJsEngine = (options) => create({ ...options, ...fixed });
  const mustRun = async (engine, request) => {
    const result = await engine.run(request);
    if (!result.ok) throw new Error(`mcpvm run failed: ${result.error.code}: ${result.error.message}`);
  };
  const modules = { bench: { noop: () => null } };
  // A new text each run: mcpvm caches the transform of recent scripts, and the peers compile every run.
  let runs = 0;
  const trivial = () => ({ code: `return 1; // run ${++runs}` });
  return {
    name,
    version,
    cold: () =>
      sample(COLD, async () => {
        const engine = await createQuickJsEngine({ warmWorkers: 1 });
        await mustRun(engine, trivial());
        await engine.dispose();
      }, settle),
    fresh: async () => {
      const engine = await createQuickJsEngine({});
      const result = await sample(WARM, () => mustRun(engine, trivial()), settle);
      await engine.dispose();
      return result;
    },
    hostCall: async () => {
      const engine = await createQuickJsEngine({});
      const result = await hostCall((withCall) => mustRun(engine, { code: `const noop = require("host:bench").noop; ${loop(withCall)} return 0;`, modules }));
      await engine.dispose();
      return result;
    },
  };
};

/** memory.mjs in its own process: MB per live sandbox, ten alive at once. */
export function memoryPerSandbox(name, mode = "") {
  // Two tries: on a loaded machine a peer's own timeouts (code-mode's 30 s per script) can fire once.
  let failure;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const args = ["--expose-gc", fileURLToPath(new URL("memory.mjs", import.meta.url)), name, ...(mode === "" ? [] : [mode])];
      const out = execFileSync(process.execPath, args, { encoding: "utf8", timeout: 120_000, stdio: ["ignore", "pipe", "pipe"] });
      return JSON.parse(out.slice(out.lastIndexOf("{")));
    } catch (error) {
      // memory.mjs ends itself with SIGKILL once its result is written (see there); a timeout sends SIGTERM.
      const out = String(error?.stdout ?? "");
      if (error?.signal === "SIGKILL" && out.includes("{")) return JSON.parse(out.slice(out.lastIndexOf("{")));
      failure = new Error(`${String(error?.stderr ?? "").trim().split("\n").slice(-2).join(" ") || error.message}`);
    }
  }
  throw failure;
}

/** Every engine's cases; an engine that fails is reported with its error, never left out silently. */
export async function measureSandboxes(versions) {
  const engines = [
    ["mcpvm", () => mcpvm(versions.mcpvm)],
    ["mcpvm-thread", () => mcpvm(versions.mcpvm, "mcpvm-thread")],
    ["mcpvm-inline", () => mcpvm(versions.mcpvm, "mcpvm-inline")],
    ["@utcp/code-mode", () => codeMode(versions["@utcp/code-mode"])],
    ["isolated-vm", () => isolatedVm(versions["isolated-vm"])],
    ["quickjs-emscripten", () => quickjsRaw(versions["quickjs-emscripten"])],
    ["node:vm", async () => nodeVm],
  ];
  const results = {};
  for (const [name, make] of engines) {
    process.stderr.write(`peers: sandbox ${name} …\n`);
    try {
      const engine = await make();
      results[name] = { version: engine.version, cold: await engine.cold(), fresh: await engine.fresh(), hostCallUs: await engine.hostCall() };
      try {
        results[name].memoryMb = memoryPerSandbox(name).perSandboxMb;
      } catch (error) {
        results[name].memoryError = String(error?.message ?? error).slice(0, 200);
      }
      try {
        const warmed = memoryPerSandbox(name, "warmed");
        results[name].warmedMemoryMb = warmed.perSandboxMb;
        results[name].oneTimeMb = warmed.oneTimeMb;
      } catch (error) {
        results[name].warmedMemoryError = String(error?.message ?? error).slice(0, 200);
      }
    } catch (error) {
      results[name] = { error: String(error?.message ?? error) };
    }
  }
  return results;
}
