import { createRequire } from "node:module";
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSSyncVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { beforeAll, describe, expect, it } from "vitest";
import { buildHandlerSource, EVAL_FILENAME, type HyperlightRunEvent } from "../../src/sandbox/engines/hyperlight/guest.js";
import { BRIDGE_FUNCTION, BRIDGE_MODULE } from "../../src/sandbox/engines/hyperlight/vm.js";
import { SYNC_VARIANT } from "../../src/sandbox/engines/quickjs-prespawn.js";
import { guestManifestText } from "../../src/sandbox/guest/bootstrap-source.js";
import { transformGuestSource } from "../../src/sandbox/guest/transform.js";
import type { HostModules } from "../../src/sandbox/types.js";

/**
 * The handler every Hyperlight micro-VM runs (buildHandlerSource), run as that VM's JavaScript engine runs
 * it: an ES module in QuickJS importing the bridge module, beside the runtime's own `console` and `require`
 * globals (non-writable, non-configurable there), called once per run with the run's event. Hyperlight VMs
 * do not boot on every machine (nested virtualisation); this runs the handler itself, with a bridge that
 * answers as the host's does (its own tests: hyperlight-bridge.test.ts).
 */
let quickjs: QuickJSWASMModule;
const requests: Array<{ op: string; module?: string; fn?: string; args?: string }> = [];

beforeAll(async () => {
  quickjs = await newQuickJSWASMModuleFromVariant((createRequire(import.meta.url)(SYNC_VARIANT) as { default: QuickJSSyncVariant }).default);
});

/** A VM as it boots: the runtime's globals, the bridge module, the handler module evaluated. Each run gets its own, as each VM run starts from its boot snapshot. */
function bootVm(): QuickJSContext {
  const runtime = quickjs.newRuntime();
  const context = runtime.newContext();
  const dispatch = context.newFunction(BRIDGE_FUNCTION, (handle) => {
    const request = JSON.parse(context.getString(handle)) as (typeof requests)[number];
    requests.push(request);
    // A lazy module lists its functions on first use; a call answers with what it was asked.
    if (request.fn === "#load") return context.newString('{"ok":true,"value":["read_graph"]}');
    return context.newString(JSON.stringify({ ok: true, value: `${request.module}.${request.fn} ${request.args}` }));
  });
  context.setProp(context.global, "__bridgeDispatch", dispatch);
  dispatch.dispose();
  const runtimeGlobals = context.evalCode(`for (const name of ["console", "require", "print"]) Object.defineProperty(globalThis, name, { value: {}, writable: false, configurable: false });`);
  context.unwrapResult(runtimeGlobals).dispose();
  runtime.setModuleLoader((name) => (name === `host:${BRIDGE_MODULE}` ? `export const ${BRIDGE_FUNCTION} = globalThis.__bridgeDispatch;` : { error: new Error(`no module ${name}`) }));
  // The runtime calls the module's exported `handler`; here the module hands it to the test the same way.
  context.unwrapResult(context.evalCode(`${buildHandlerSource()}\nglobalThis.__handler = handler;`, "handler.js", { type: "module" })).dispose();
  runtime.executePendingJobs();
  return context;
}

/** One run through the handler, as the engine builds its event; the bootstrap's outcome envelope. */
function run(code: string, modules: HostModules, tools?: Readonly<Record<string, string>>): unknown {
  const transformed = transformGuestSource(code);
  if (!transformed.ok) throw new Error(transformed.error.message);
  const context = bootVm();
  const event: HyperlightRunEvent = { code: transformed.source.code, manifest: guestManifestText(modules, 100_000, tools) };
  const handler = context.getProp(context.global, "__handler");
  const parse = context.unwrapResult(context.evalCode("(text) => JSON.parse(text)", EVAL_FILENAME));
  const text = context.newString(JSON.stringify(event));
  const parsed = context.unwrapResult(context.callFunction(parse, context.undefined, text));
  const result = context.unwrapResult(context.callFunction(handler, context.undefined, parsed));
  [handler, parse, text, parsed].forEach((handle) => handle.dispose());
  context.runtime.executePendingJobs();
  const state = context.getPromiseState(result);
  result.dispose();
  if (state.type !== "fulfilled") throw new Error(`the handler's promise is ${state.type}`);
  const outcome = context.getString(state.value);
  state.value.dispose();
  context.dispose();
  context.runtime.dispose();
  return JSON.parse(outcome) as unknown;
}

const memory: HostModules = { "mcp-memory": { lazy: true, label: { title: "memory", member: "tool" }, load: () => Promise.resolve({}) } };

describe("the Hyperlight VM's handler", () => {
  it("gives the guest the `tools` global of a run that has one, calling each server's module through the bridge", () => {
    requests.length = 0;
    const outcome = run(`return [typeof tools, Object.keys(tools), await tools.memory.read_graph({ depth: 1 })];`, memory, { memory: "mcp-memory" });
    expect(outcome).toEqual({ ok: true, value: ["object", ["memory"], 'mcp-memory.read_graph [{"depth":1}]'] });
    expect(requests.filter((r) => r.op === "call").map((r) => `${r.module}.${r.fn}`)).toEqual(["mcp-memory.#load", "mcp-memory.read_graph"]);
  });

  it("and no `tools` global to a run without one", () => {
    expect(run(`return typeof tools;`, memory)).toEqual({ ok: true, value: "undefined" });
  });
});
