import { describe, expect, it } from "vitest";
import type { HostModules } from "../../../src/sandbox/types.js";
import { errorOf, run, valueOf, type EngineRef } from "./helpers.js";

const modules: HostModules = {
  "mcp-alpha": { echo: (args) => ({ from: "alpha", args }) },
  "mcp-my-beta": { echo: (args) => ({ from: "beta", args }) },
};
// As the host gives it (src/mcp/service/tools-table.ts): each server's key -> its module; "off" has none (a disabled server).
const toolsGlobal = { alpha: "mcp-alpha", "my-beta": "mcp-my-beta", off: "mcp-off" };

/**
 * The `tools` global (RunRequest.toolsGlobal, src/sandbox/guest/guest-tools.ts): built in the guest,
 * each server's object made on first use, yet to a script it is the frozen object of every server's
 * object it always was, however the script looks at it first.
 */
export function toolsGlobalTests(engine: EngineRef): void {
  describe("tools global", () => {
    it("calls a server's module through tools.<key>, with the arguments object", async () => {
      expect(valueOf(await run(engine(), 'return await tools["my-beta"].echo({ n: 1 });', { modules, toolsGlobal }))).toEqual({ from: "beta", args: [{ n: 1 }] });
    });

    it("is a frozen, non-writable global whose keys come in the table's order, whatever is read first", async () => {
      const code = `
        const first = tools.off;
        const d = Object.getOwnPropertyDescriptor(globalThis, "tools");
        const k = Object.getOwnPropertyDescriptor(tools, "alpha");
        return [Object.keys(tools), Object.isFrozen(tools), Object.isExtensible(tools), "alpha" in tools, "nope" in tools,
          d.writable, d.enumerable, d.configurable, k.writable, k.enumerable, k.configurable, k.value === tools.alpha, first === tools.off,
          Reflect.set(tools, "alpha", 1), Reflect.deleteProperty(tools, "alpha"), Reflect.defineProperty(tools, "x", { value: 1 }), Reflect.setPrototypeOf(tools, {}),
          Object.getPrototypeOf(tools), JSON.stringify(Object.entries(tools).map(([key]) => key))];`;
      expect(valueOf(await run(engine(), code, { modules, toolsGlobal }))).toEqual([
        ["alpha", "my-beta", "off"], true, false, true, false,
        false, false, false, false, true, false, true, true,
        false, false, false, false,
        null, '["alpha","my-beta","off"]',
      ]);
    });

    it("answers the names everything probes with undefined, so awaiting it or a server does not call anything", async () => {
      const code = "const t = await tools; const s = await tools.alpha; return [t === tools, s === tools.alpha, typeof tools.then, typeof tools.toJSON, typeof tools.alpha.then];";
      expect(valueOf(await run(engine(), code, { modules, toolsGlobal }))).toEqual([true, true, "undefined", "undefined", "undefined"]);
    });

    it("says which servers exist for an unknown one, before or after the others were made", async () => {
      const before = errorOf(await run(engine(), "tools.alpa.echo({});", { modules, toolsGlobal }), "GUEST_ERROR");
      expect(before.message).toBe('tools has no server "alpa"; did you mean alpha?');
      const after = errorOf(await run(engine(), "Object.keys(tools); tools.zzz;", { modules, toolsGlobal }), "GUEST_ERROR");
      expect(after.message).toBe('tools has no server "zzz" (configured: alpha, my-beta, off)');
    });

    it("is each run's own: runs with other tables or none, one after another, never see another run's", async () => {
      const tables: ReadonlyArray<Readonly<Record<string, string>> | undefined> = [toolsGlobal, { gamma: "mcp-gamma" }, undefined, {}, { alpha: "mcp-alpha" }];
      const seen: unknown[] = [];
      for (let round = 0; round < 2; round++) {
        for (const table of tables) {
          const code = 'return typeof tools === "undefined" ? null : [Object.keys(tools), Object.keys(tools).map((k) => typeof tools[k].echo)];';
          seen.push(valueOf(await run(engine(), code, { modules, ...(table === undefined ? {} : { toolsGlobal: table }) })));
          // Idle between runs, so that an engine that keeps an image of its sandbox takes it and restores from it.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const expected = [[["alpha", "my-beta", "off"], ["function", "function", "function"]], [["gamma"], ["function"]], null, [[], []], [["alpha"], ["function"]]];
      expect(seen).toEqual([...expected, ...expected]);
    });

    it("is absent without a table, and empty with an empty one", async () => {
      expect(valueOf(await run(engine(), "return typeof tools;", { modules }))).toBe("undefined");
      expect(valueOf(await run(engine(), "return [Object.keys(tools), Object.isFrozen(tools)];", { modules: {}, toolsGlobal: {} }))).toEqual([[], true]);
    });
  });
}
