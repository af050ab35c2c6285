import { parse } from "@babel/parser";
import { describe, expect, it } from "vitest";
import { McpvmError } from "../../src/util/errors.js";
import { createRunBridge } from "../../src/sandbox/engines/hyperlight/bridge.js";
import { buildHandlerSource } from "../../src/sandbox/engines/hyperlight/guest.js";
import { outcomeFromCallError, outcomeFromReply } from "../../src/sandbox/engines/hyperlight/outcome.js";
import { BYTES_KEY } from "../../src/sandbox/guest/codec.js";
import type { HostCallContext, HostModules } from "../../src/sandbox/types.js";
import { logEntryBytes } from "../../src/sandbox/host/output-budget.js";
import { guestBootstrapSource, guestManifestText, guestPieces } from "../../src/sandbox/guest/bootstrap-source.js";
import { RAW_STRING_REPLY, RAW_VALUE_REPLY, type GuestPieceName, type GuestRunner } from "../../src/sandbox/guest/native.js";

/** The addon promotes its `[ERR_*]` message prefixes to `error.code`; these are errors of that shape. */
function addonError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A host reply read as the guest reads it: a raw string value, a value's JSON alone, or a JSON envelope. */
function readReply(text: string): Record<string, unknown> {
  if (text.startsWith(RAW_STRING_REPLY)) return { ok: true, value: text.slice(1) };
  if (text.startsWith(RAW_VALUE_REPLY)) return text.length === 1 ? { ok: true } : { ok: true, value: JSON.parse(text.slice(1)) as unknown };
  return JSON.parse(text) as Record<string, unknown>;
}

function bridgeFor(modules: HostModules, outputBytes = 10_000) {
  const controller = new AbortController();
  const bridge = createRunBridge({ modules, signal: controller.signal, deadline: Date.now() + 5_000, outputBytes });
  const call = async (module: string, fn: string, args: unknown[]) =>
    readReply(await bridge.dispatch(JSON.stringify({ op: "call", module, fn, args: JSON.stringify(args) })));
  return { bridge, controller, call };
}

describe("the guest handler compiled into each VM", () => {
  const source = buildHandlerSource();

  it("is an ES module that imports the bridge module and exports `handler` explicitly", () => {
    const program = parse(source, { sourceType: "module" }).program;
    const imports = program.body.filter((node) => node.type === "ImportDeclaration");
    expect(imports.map((node) => node.source.value)).toEqual(["host:__mcpvm"]);
    const exported = program.body.filter((node) => node.type === "ExportNamedDeclaration").flatMap((node) => node.specifiers);
    expect(exported.map((s) => (s.exported.type === "Identifier" ? s.exported.name : s.exported.value))).toEqual(["handler"]);
  });
});

describe("the host side of the bridge", () => {
  it("runs a host function with decoded arguments and replies with the shared envelope, bytes included", async () => {
    const seen: unknown[] = [];
    const { bridge, call } = bridgeFor({
      blob: {
        reverse: (args, context: HostCallContext) => {
          seen.push(context.module, context.fn);
          return Uint8Array.from([...(args[0] as Uint8Array)].reverse());
        },
      },
    });
    const reply = await call("blob", "reverse", [{ [BYTES_KEY]: Buffer.from([1, 2, 3]).toString("base64") }]);
    expect(reply).toEqual({ ok: true, value: { [BYTES_KEY]: Buffer.from([3, 2, 1]).toString("base64") } });
    expect(seen).toEqual(["blob", "reverse"]);
    expect(bridge.hostCalls()).toBe(1);
  });

  it("turns a thrown McpvmError into an error reply keeping name and code", async () => {
    class McpToolError extends McpvmError<"MCP_TOOL_ERROR"> {}
    const { call } = bridgeFor({
      gh: {
        fail: () => {
          throw new McpToolError("MCP_TOOL_ERROR", "github.list_issues failed: rate limited");
        },
      },
    });
    expect(await call("gh", "fail", [])).toEqual({
      ok: false,
      error: { name: "McpToolError", message: "github.list_issues failed: rate limited", code: "MCP_TOOL_ERROR" },
    });
  });

  it("loads a lazy module on first use only, with the run's signal and deadline", async () => {
    let loads = 0;
    const { call } = bridgeFor({
      "mcp-x": {
        lazy: true,
        load: async (context: { signal: AbortSignal; deadline: number }) => {
          loads += 1;
          expect(context.signal.aborted).toBe(false);
          expect(context.deadline).toBeGreaterThan(Date.now());
          return { ping: () => "pong" };
        },
      },
    });
    expect(await call("mcp-x", "ping", [])).toEqual({ ok: true, value: "pong" });
    expect(await call("mcp-x", "ping", [])).toEqual({ ok: true, value: "pong" });
    expect(loads).toBe(1);
  });

  it("answers an unknown function with a TypeError that does not quote the guest's name back", async () => {
    const { call } = bridgeFor({ m: { a: () => 1 } });
    const reply = await call("m", "b-made-up-by-the-guest", []);
    expect(reply).toMatchObject({ ok: false, error: { name: "TypeError", code: "HOST_FUNCTION_NOT_FOUND", message: "The host module has no function by that name" } });
    expect(JSON.stringify(reply)).not.toContain("made-up");
    const module = await call("made-up-module", "a", []);
    expect(module).toMatchObject({ ok: false, error: { code: "HOST_FUNCTION_NOT_FOUND", message: "No such host module in this run" } });
  });

  it("releases a host call still in flight when the run ends, so the blocked VM can be stopped", async () => {
    let started = false;
    const { call, controller } = bridgeFor({
      slow: {
        wait: (_args, context) =>
          new Promise((resolve) => {
            started = true;
            context.signal.addEventListener("abort", () => resolve("too late"), { once: true });
          }),
      },
    });
    const pending = call("slow", "wait", []);
    await Promise.resolve();
    expect(started).toBe(true);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { name: "AbortError" } });
  });

  it("meters console lines (with their JSON framing) against the output budget, dropping every line after the first that does not fit", async () => {
    const { bridge } = bridgeFor({}, logEntryBytes("info", "first") + 7);
    const log = (message: string) => bridge.dispatch(JSON.stringify({ op: "log", level: "info", message }));
    expect(await log("first")).toBe('{"ok":true}');
    await log("second line that no longer fits the budget");
    await log("3rd");
    expect(bridge.logs).toEqual([{ level: "info", message: "first" }]);
    expect(bridge.droppedLogs()).toBe(2);
    expect(bridge.logBytes()).toBe(logEntryBytes("info", "first"));
  });

  it("refuses a malformed request without calling anything", async () => {
    const { bridge } = bridgeFor({});
    expect(JSON.parse(await bridge.dispatch("{not json"))).toMatchObject({ ok: false, error: { name: "TypeError" } });
    expect(JSON.parse(await bridge.dispatch(JSON.stringify({ op: "exec", cmd: "ls" })))).toMatchObject({ ok: false });
    expect(bridge.hostCalls()).toBe(0);
  });
});

describe("reading what the VM returned", () => {
  it("passes the bootstrap's envelope through untouched", () => {
    const text = '{"ok":true,"value":{"stage":"prelude","error":{"message":"forged"}}}';
    expect(outcomeFromReply(text)).toEqual({ kind: "envelope", text });
  });

  it("reports the handler wrapper's own failures by stage", () => {
    const error = { name: "TypeError", message: "x is not a function" };
    expect(outcomeFromReply(JSON.stringify({ stage: "prelude", error }))).toEqual({ kind: "prelude", error });
    expect(outcomeFromReply(JSON.stringify({ stage: "compile", error }))).toEqual({ kind: "syntax", message: "x is not a function" });
    expect(outcomeFromReply(JSON.stringify({ stage: "bootstrap", error }))).toMatchObject({ kind: "failure" });
    expect(outcomeFromReply(42)).toMatchObject({ kind: "failure" });
  });

  it("maps the addon's monitors to the CPU and wall limits by the monitor's name", () => {
    const cancelled = addonError("ERR_CANCELLED", "execution cancelled");
    expect(outcomeFromCallError(cancelled, { wallClockMs: 10, cpuTimeMs: 9, terminatedBy: "cpu-time" })).toEqual({ kind: "limit", limit: "cpuMs" });
    expect(outcomeFromCallError(cancelled, { wallClockMs: 10, terminatedBy: "wall-clock" })).toEqual({ kind: "limit", limit: "wallMs" });
    expect(outcomeFromCallError(cancelled, undefined)).toEqual({ kind: "limit", limit: "cpuMs" });
  });

  it("reports an aborted guest as the memory limit and anything else as an engine failure with its code", () => {
    expect(outcomeFromCallError(addonError("ERR_GUEST_ABORT", "guest aborted: 3 MallocFailed"), undefined)).toMatchObject({ kind: "limit", limit: "memoryBytes" });
    const internal = outcomeFromCallError(addonError("ERR_INTERNAL", "Unknown KVM VCPU exit"), undefined);
    expect(internal).toEqual({ kind: "failure", message: "the micro-VM failed [ERR_INTERNAL]: Unknown KVM VCPU exit" });
  });
});

/**
 * The VM cannot run guest code while it waits in the bridge, so a call's progress events travel with
 * its reply (HostReply.events) and the shared bootstrap hands them to the guest's `onProgress`, in
 * order, before the call returns. Hyperlight VMs do not boot here; this drives both halves directly.
 */
describe("progress events without live delivery", () => {
  const modules: HostModules = {
    work: {
      lazy: true,
      label: { title: "work", member: "function", progress: true },
      load: async () => ({
        steps: (_args: readonly unknown[], context: HostCallContext) => {
          for (const progress of [1, 2, 3]) context.notify?.({ progress, total: 3 });
          setTimeout(() => context.notify?.({ progress: 99 }), 0);
          return context.notify === undefined ? "not listening" : "done";
        },
        fails: (_args: readonly unknown[], context: HostCallContext) => {
          context.notify?.({ progress: 1 });
          throw new McpvmError("WORK_FAILED", "it failed after one step");
        },
      }),
    },
  };

  it("collects a listening call's events, in order, into its reply (also an error reply); nothing after it returned", async () => {
    const controller = new AbortController();
    const bridge = createRunBridge({ modules, signal: controller.signal, deadline: Date.now() + 5_000, outputBytes: 10_000 });
    const send = async (fn: string, listen: boolean | undefined) =>
      readReply(await bridge.dispatch(JSON.stringify({ op: "call", module: "work", fn, args: "[{}]", ...(listen === undefined ? {} : { listen }) })));
    expect(await send("steps", true)).toEqual({ ok: true, value: "done", events: [{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { progress: 3, total: 3 }] });
    expect(await send("steps", undefined)).toEqual({ ok: true, value: "not listening" });
    expect(await send("fails", true)).toMatchObject({ ok: false, error: { code: "WORK_FAILED" }, events: [{ progress: 1 }] });
  });

  it("the shared bootstrap delivers a reply's events to onProgress before the call returns, and strips the option", async () => {
    const sent: { argsText: string; listening: boolean }[] = [];
    const logs: string[] = [];
    const native = {
      callSync(module: string, fn: string, argsText: string, listener?: unknown): string {
        if (fn === "#load") return '{"ok":true,"value":["steps"]}';
        sent.push({ argsText, listening: typeof listener === "function" });
        return '{"ok":true,"value":"done","events":[{"progress":1},{"progress":2}]}';
      },
      log: (_level: string, message: string) => void logs.push(message),
      source: (piece: GuestPieceName) => guestPieces()[piece],
    };
    const manifest = guestManifestText(modules, 100_000);
    // As in the VM's handler: the bootstrap's `globalThis` is a scope object, so nothing lands on this process's globals.
    const scope: Record<string, unknown> = {};
    const bootstrap = (0, eval)(`(function (globalThis) { return ${guestBootstrapSource()}; })`)(scope) as (native: unknown, manifestText: string) => GuestRunner;
    const runner = bootstrap(native, manifest);
    const outcome = await runner.start(async () => {
      const work = (scope.require as (name: string) => { steps: (...args: unknown[]) => unknown })("host:work");
      const events: unknown[] = [];
      const value = work.steps({ a: 1 }, { onProgress: (event: unknown) => events.push(event) });
      events.push(value);
      work.steps({
        onProgress: () => {
          throw new Error("listener broke");
        },
      });
      return events;
    });
    expect(JSON.parse(outcome)).toEqual({ ok: true, value: [{ progress: 1 }, { progress: 2 }, "done"] });
    expect(sent).toEqual([
      { argsText: '[{"a":1}]', listening: true },
      { argsText: "[{}]", listening: true },
    ]);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/Uncaught in onProgress of host:work: .*listener broke/);
  });
});
