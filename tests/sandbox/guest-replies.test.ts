import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import { createQuickJsInlineEngine } from "../../src/sandbox/engines/quickjs-inline.js";
import type { SandboxEngine } from "../../src/sandbox/types.js";

/**
 * Host replies as the guest reads them, on both QuickJS engines: a string value crosses raw, past
 * JSON (RAW_STRING_REPLY in native.ts), so every string that must not (a NUL, a lone surrogate, events
 * with it) and every one that may must still arrive exactly; and a module
 * object finds its own functions directly while a missing name still throws the module's TypeError.
 */

const STRINGS = [
  "",
  "plain text",
  'with "quotes" inside',
  "ends with a quote and brace \"}",
  "back\\slash",
  "line\nbreak\ttab",
  "\u0000bytes",
  "unicode ü € 𝄞 \u2028 \u2029",
  '{"ok":true,"value":"nested"}',
  "}",
  "\u0001starts with the raw reply's marker",
  "\u0001",
  "a lone \ud800 surrogate",
];

const PRIMITIVES = [null, true, false, 0, -1.5, 1e21, "", "s"];

describe.each([
  ["quickjs", () => createQuickJsEngine({ warmWorkers: 1, maxWorkers: 2 })],
  ["quickjs-inline", () => createQuickJsInlineEngine({ maxInstances: 2 })],
] as const)("guest replies and module objects on %s", (_kind, create) => {
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await create();
  });
  afterAll(async () => {
    await engine.dispose();
  });

  const modules = {
    t: {
      text: (args: readonly unknown[]) => STRINGS[args[0] as number],
      value: (args: readonly unknown[]) => ({ text: STRINGS[args[0] as number], list: [STRINGS[args[0] as number]] }),
      bytes: () => new Uint8Array([0, 1, 255]),
      primitive: (args: readonly unknown[]) => PRIMITIVES[args[0] as number],
      nothing: () => undefined,
      echo: (args: readonly unknown[]) => args.map((arg) => (arg instanceof Uint8Array ? { bytes: Array.from(arg) } : arg)),
      fail: () => {
        throw Object.assign(new Error('refused "x"'), { code: "NOPE" });
      },
    },
  };

  it("every string comes back exactly, alone or inside a value", async () => {
    const result = await engine.run({
      code: `const t = require("host:t"); const out = []; for (let i = 0; i < ${STRINGS.length}; i++) out.push([t.text(i), t.value(i)]); return out;`,
      modules,
    });
    expect(result.ok ? result.value : result.error).toEqual(STRINGS.map((text) => [text, { text, list: [text] }]));
  });

  it("a value without a string crosses alone (RAW_VALUE_REPLY): primitives, undefined and objects come back as they were", async () => {
    const result = await engine.run({
      code: `const t = require("host:t"); const out = []; for (let i = 0; i < ${PRIMITIVES.length}; i++) out.push(t.primitive(i)); return [out, t.nothing() === undefined, t.value(1)];`,
      modules,
    });
    expect(result.ok ? result.value : result.error).toEqual([PRIMITIVES, true, { text: STRINGS[1], list: [STRINGS[1]] }]);
  });

  it("arguments: primitives alone skip the codec's replacer, bytes anywhere are still bytes on the host", async () => {
    const result = await engine.run({
      code: `const t = require("host:t"); return [t.echo(), t.echo(1, "a", null, true, undefined), t.echo(new Uint8Array([7]), { b: new Uint8Array([8]) })];`,
      modules,
    });
    expect(result.ok ? result.value : result.error).toEqual([[], [1, "a", null, true, null], [{ bytes: [7] }, { b: new Uint8Array([8]) }]]);
  });

  it("bytes and errors are unchanged", async () => {
    const result = await engine.run({
      code: `const t = require("host:t"); const b = t.bytes(); let e; try { t.fail(); } catch (error) { e = [error.name, error.message, error.code]; } return [b instanceof Uint8Array, Array.from(b), e];`,
      modules,
    });
    expect(result.ok ? result.value : result.error).toEqual([true, [0, 1, 255], ["Error", 'refused "x"', "NOPE"]]);
  });

  it("a module object lists its own functions; a missing one throws naming the module; probes answer undefined", async () => {
    const result = await engine.run({
      code: `const t = require("host:t");
        let missing;
        try { t.txt(0); } catch (error) { missing = [error.name, error.code, error.message]; }
        return { keys: Object.keys(t).sort(), has: "text" in t, hasMissing: "txt" in t, then: t.then, json: JSON.stringify(t), missing, frozen: Object.isFrozen(t) };`,
      modules,
    });
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as { keys: string[]; has: boolean; hasMissing: boolean; then: unknown; json: string; missing: string[]; frozen: boolean };
    expect(value.keys).toEqual(["bytes", "echo", "fail", "nothing", "primitive", "text", "value"]);
    expect(value.has).toBe(true);
    expect(value.hasMissing).toBe(false);
    expect(value.then).toBeUndefined();
    expect(value.json).toBe("{}");
    expect(value.frozen).toBe(true);
    expect(value.missing?.[0]).toBe("TypeError");
    expect(value.missing?.[1]).toBe("HOST_FUNCTION_NOT_FOUND");
    expect(value.missing?.[2]).toContain("host:t");
    expect(value.missing?.[2]).toContain("text");
  });
});
