import { describe, expect, it } from "vitest";
import { RAW_STRING_REPLY, RAW_VALUE_REPLY } from "../../src/sandbox/guest/native.js";
import { RunModules } from "../../src/sandbox/host/run-modules.js";
import type { HostCallContext, HostModules } from "../../src/sandbox/types.js";

const runContext = () => ({ signal: new AbortController().signal, deadline: Date.now() + 60_000 });
/** A host reply read as the guest reads it: a raw string value, a value's JSON alone, or a JSON envelope. */
const reply = (text: string): unknown => {
  if (text.startsWith(RAW_STRING_REPLY)) return { ok: true, value: text.slice(1) };
  if (text.startsWith(RAW_VALUE_REPLY)) return text.length === 1 ? { ok: true } : { ok: true, value: JSON.parse(text.slice(1)) as unknown };
  return JSON.parse(text) as unknown;
};

describe("RunModules: one run's host modules", () => {
  it("loads a lazy module once per run, shared by concurrent first calls, then serves it without loading again", async () => {
    let loads = 0;
    const modules: HostModules = {
      lazy: {
        lazy: true,
        load: async () => {
          loads++;
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { twice: (args: readonly unknown[]) => (args[0] as number) * 2 };
        },
      },
    };
    const run = new RunModules(modules);
    const context = runContext();
    const first = await Promise.all([1, 2, 3].map((n) => run.call({ module: "lazy", fn: "twice", argsText: `[${n}]` }, context)));
    expect(first.map(reply)).toEqual([2, 4, 6].map((value) => ({ ok: true, value })));
    for (let n = 0; n < 5; n++) expect(reply(await run.call({ module: "lazy", fn: "twice", argsText: `[${n}]` }, context))).toEqual({ ok: true, value: n * 2 });
    expect(loads).toBe(1);
    // Another run loads afresh (the module may have changed between runs).
    await new RunModules(modules).call({ module: "lazy", fn: "twice", argsText: "[1]" }, context);
    expect(loads).toBe(2);
  });

  it("does not remember a failed load: the next call of the run tries again", async () => {
    let loads = 0;
    const modules: HostModules = {
      flaky: {
        lazy: true,
        load: async () => {
          loads++;
          if (loads === 1) throw Object.assign(new Error("server did not start"), { code: "MCP_CONNECT_FAILED" });
          return { ping: () => "pong" };
        },
      },
    };
    const run = new RunModules(modules);
    const failed = reply(await run.call({ module: "flaky", fn: "ping", argsText: "[]" }, runContext())) as { ok: boolean; error: { code: string } };
    expect(failed.ok).toBe(false);
    expect(failed.error.code).toBe("MCP_CONNECT_FAILED");
    expect(reply(await run.call({ module: "flaky", fn: "ping", argsText: "[]" }, runContext()))).toEqual({ ok: true, value: "pong" });
    expect(loads).toBe(2);
  });

  it("gives every call the run's context: its signal and deadline, one scope, one tool-call budget, and the reply budget when the run has a memory limit", async () => {
    const seen: HostCallContext[] = [];
    const modules: HostModules = { m: { look: (_args, context) => (seen.push(context), null) } };
    const context = runContext();
    const withMemory = new RunModules(modules, { memoryBytes: 1024, toolCalls: 7, code: "the script" });
    await withMemory.call({ module: "m", fn: "look", argsText: "[]" }, context);
    await withMemory.call({ module: "m", fn: "look", argsText: "[]" }, context);
    const [a, b] = seen as [HostCallContext, HostCallContext];
    expect(a).toMatchObject({ module: "m", fn: "look", signal: context.signal, deadline: context.deadline });
    expect(a.scope?.code).toBe("the script");
    expect(b.scope).toBe(a.scope);
    expect(b.toolCalls).toBe(a.toolCalls);
    expect(a.toolCalls?.limit).toBe(7);
    expect(a.replies?.limitBytes).toBe(1024);
    expect(a.notify).toBeUndefined();
    await new RunModules(modules).call({ module: "m", fn: "look", argsText: "[]" }, context);
    expect("replies" in (seen[2] as HostCallContext)).toBe(false);
  });

  it("answers a module that is not in the run as an error reply, without throwing", async () => {
    const answer = reply(await new RunModules({}).call({ module: "nope", fn: "x", argsText: "[]" }, runContext())) as { ok: boolean; error: { code: string } };
    expect(answer).toMatchObject({ ok: false, error: { code: "HOST_FUNCTION_NOT_FOUND" } });
  });
});
