import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import * as full from "zod";

const ROOT = join(import.meta.dirname, "..", "..");
const SHARED = join(ROOT, "dist", "node_modules", "zod");

/**
 * The build's one-file zod (scripts/build-cli.mjs, buildSharedZod) that the bundled CLI, the native
 * plugins and the host sources under dist/ all resolve instead of node_modules/zod's ~95 modules: the
 * same exports, the same messages, one copy for all of them, and schemas a second copy (the LLM and
 * server SDKs under node_modules) still reads. Needs `npm run build` (npm ci runs it).
 */
let slim: typeof full;
beforeAll(async () => {
  if (!existsSync(join(SHARED, "index.js"))) throw new Error("the build is missing: run `npm run build` first (npm ci runs it through prepare)");
  slim = (await import(pathToFileURL(join(SHARED, "index.js")).href)) as typeof full;
});

describe("the shared zod under dist/", () => {
  it("is what dist/cli, dist/plugins and dist/src resolve for `zod` (and the client SDK's `zod/v4`), one file", () => {
    for (const from of ["dist/cli/main.mjs", "dist/plugins/mcp/config.js", "dist/plugins/fetch/config.js", "dist/src/plugins/args.js"]) {
      expect(existsSync(join(ROOT, from)), from).toBe(true);
      const resolve = createRequire(join(ROOT, from)).resolve;
      expect(resolve("zod"), from).toBe(join(SHARED, "index.js"));
      expect(resolve("zod/v4"), from).toBe(join(SHARED, "index.js"));
    }
    // Outside dist/ (the tests, vite-node, the packages under node_modules): node_modules/zod.
    expect(createRequire(join(ROOT, "src", "cli", "main.ts")).resolve("zod")).not.toContain(join("dist", "node_modules"));
  });

  it("exports what zod exports, with English as its only locale", () => {
    expect(Object.keys(slim).sort()).toEqual(Object.keys(full).sort());
    expect(Object.keys(slim.locales)).toEqual(["en"]);
    expect(Object.keys(full.locales).length).toBeGreaterThan(30);
  });

  it("gives the same issues and messages as node_modules/zod", () => {
    const cases: Array<[(z: typeof full) => full.ZodType, unknown[]]> = [
      [(z) => z.object({ name: z.string().min(3), port: z.number().int().positive().max(65535) }).strict(), [{ name: "ab", port: 1.5 }, { name: 1, port: -1, extra: true }, null, { name: "abc", port: 70000 }]],
      [(z) => z.enum(["auto", "quickjs", "quickjs-inline", "hyperlight"]), ["quick", 3]],
      [(z) => z.union([z.string().url(), z.literal(false)]), ["not a url", true]],
      [(z) => z.record(z.string(), z.array(z.boolean()).max(2)), [{ a: [true, true, false] }, { b: "x" }]],
      [(z) => z.iso.datetime(), ["2026-11-26", "2026-11-26T14:00:00Z"]],
      [(z) => z.string().email().or(z.number().multipleOf(5)), ["a@", 7]],
      [(z) => z.object({ a: z.string() }).refine((v) => v.a !== "x", { message: "a must not be x" }), [{ a: "x" }]],
      [(z) => z.tuple([z.string(), z.number()]), [["a"], ["a", "b", 3]]],
    ];
    for (const [make, inputs] of cases) {
      const [ours, theirs] = [make(slim), make(full)];
      for (const input of inputs) {
        const [a, b] = [ours.safeParse(input), theirs.safeParse(input)];
        expect(a.success, JSON.stringify(input)).toBe(b.success);
        expect(a.error?.issues, JSON.stringify(input)).toEqual(b.error?.issues);
        if (a.error !== undefined && b.error !== undefined) expect(slim.prettifyError(a.error)).toBe(full.prettifyError(b.error));
      }
      expect(slim.toJSONSchema(ours)).toEqual(full.toJSONSchema(theirs));
    }
  });

  it("its schemas are read by node_modules/zod (the LLM SDK converts the agent's tool schemas with its own copy)", () => {
    const schema = slim.object({ code: slim.string().describe("JavaScript to run"), timeoutMs: slim.number().int().optional() });
    expect(schema instanceof full.ZodType).toBe(true);
    expect(full.toJSONSchema(schema)).toEqual(full.toJSONSchema(full.object({ code: full.string().describe("JavaScript to run"), timeoutMs: full.number().int().optional() })));
    expect(full.object({ inner: schema }).safeParse({ inner: { code: 1 } }).error?.issues[0]?.path).toEqual(["inner", "code"]);
  });
});
