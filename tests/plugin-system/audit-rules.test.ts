import { describe, expect, it } from "vitest";
import { scanSource } from "../../src/plugin-system/index.js";

/** The rule ids one source file triggers, sorted and de-duplicated. */
function rules(code: string): string[] {
  return [...new Set(scanSource(code, "index.ts").findings.map((finding) => finding.rule))].sort();
}

describe("the audit finds dangerous capabilities in one file", () => {
  it.each([
    ["child_process by import", `import { exec } from "node:child_process"; exec("ls");`, ["child-process"]],
    ["child_process by require", `const cp = require("child_process"); cp.spawn("ls");`, ["child-process"]],
    ["cluster", `import cluster from "cluster";`, ["child-process"]],
    ["worker_threads", `import { Worker } from "node:worker_threads"; new Worker(new URL("./w.js", import.meta.url));`, ["worker-threads"]],
    ["a Worker running a string", `import { Worker } from "worker_threads"; new Worker("process.exit()", { eval: true });`, ["worker-eval", "worker-threads"]],
    ["Worker options it cannot see", `import { Worker } from "worker_threads"; const o = make(); new Worker(src, o);`, ["worker-eval", "worker-threads"]],
    ["eval", `eval("1 + 1");`, ["eval"]],
    ["new Function", `const f = new Function("a", "return a");`, ["function-constructor"]],
    ["Function reached through .constructor", `const F = (function () {}).constructor; F("return this")();`, ["function-constructor"]],
    ["a .constructor chain", `const F = ({}).constructor.constructor; F("return this")();`, ["function-constructor"]],
    ["AsyncFunction through getPrototypeOf", `const A = Object.getPrototypeOf(async () => {}).constructor;`, ["function-constructor"]],
    ["calling any .constructor", `value.constructor("return process")();`, ["function-constructor"]],
    ["vm", `import vm from "node:vm"; vm.runInNewContext("1");`, ["vm"]],
    ["inspector", `import * as inspector from "inspector";`, ["vm"]],
    ["net / dgram / tls", `import net from "net"; import dgram from "dgram"; import tls from "tls";`, ["network"]],
    ["http, https, http2", `import "http"; import "https"; import "node:http2";`, ["network"]],
    ["undici", `import { request } from "undici";`, ["network"]],
    ["global fetch", `await fetch("https://example.com");`, ["network"]],
    ["WebSocket", `new WebSocket("wss://example.com");`, ["network"]],
    ["process.env", `const token = process.env.TOKEN;`, ["env"]],
    ["env imported from process", `import { env } from "node:process"; console.log(env.HOME);`, ["env"]],
    ["process.binding", `process.binding("fs");`, ["native-binding"]],
    ["process.dlopen", `process.dlopen(module, "/tmp/x.node");`, ["native-binding"]],
    ["fs.writeFile on a namespace import", `import * as fs from "node:fs"; fs.writeFileSync("a", "b");`, ["fs-write"]],
    ["fs/promises default import", `import fsp from "fs/promises"; await fsp.rm("x", { recursive: true });`, ["fs-write"]],
    ["fs.promises member", `import fs from "fs"; await fs.promises.appendFile("x", "y");`, ["fs-write"]],
    ["named imports of writes", `import { rename, chmod } from "node:fs/promises";`, ["fs-write"]],
    ["destructured require", `const { mkdirSync, createWriteStream: cws } = require("fs");`, ["fs-write"]],
    ["nested destructuring", `const { promises: { unlink } } = require("node:fs");`, ["fs-write"]],
    ["reads", `import { readFile } from "node:fs/promises"; await readFile("x");`, ["fs-read"]],
    ["open for writing", `import { open } from "node:fs/promises"; await open("x", "a+");`, ["fs-read", "fs-write"]],
    ["open with numeric write flags", `import { open, constants } from "node:fs/promises"; await open("x", constants.O_WRONLY | constants.O_CREAT);`, ["fs-read", "fs-write"]],
    ["open read-only with numeric flags", `import { open, constants } from "node:fs/promises"; await open("x", constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);`, ["fs-read"]],
    ["open with destructured write flag", `import { open } from "node:fs/promises"; import { constants } from "node:fs"; const { O_APPEND, O_RDONLY } = constants; await open("x", O_RDONLY | O_APPEND);`, ["fs-read", "fs-write"]],
  ])("%s", (_name, code, expected) => {
    expect(rules(code)).toEqual(expected);
  });

  it("does not flag ordinary .constructor reads", () => {
    expect(rules(`export const isPlain = (v: object) => v.constructor === Object || v.constructor.name === "Object";`)).toEqual([]);
  });

  it("reports nothing for a plugin that only computes", () => {
    expect(rules(`import { join } from "node:path"; import { createHash } from "node:crypto"; export const f = (a: string) => createHash("sha256").update(join(a, "b")).digest("hex");`)).toEqual([]);
  });

  it("ignores type-only constructs (they do not exist at run time)", () => {
    const code = `import type { ChildProcess } from "node:child_process";
type T = typeof fetch; interface I { env: typeof process.env }
declare const eval2: (code: string) => unknown;
export function f(x: ReturnType<typeof require>): void { void x; }`;
    expect(rules(code)).toEqual([]);
  });

  it("gives the 1-based line and column of each finding", () => {
    const { findings } = scanSource(`const a = 1;\nconst b = 2; eval("a");\n`, "index.ts");
    expect(findings).toEqual([{ rule: "eval", line: 2, column: 14, detail: "eval" }]);
  });
});

describe("evasions are resolved or flagged as dynamic", () => {
  it.each([
    ["a concatenated module name", `const cp = require("child_" + "process"); cp.exec("id");`, ["child-process"]],
    ["a template literal and a const", `const part = "process"; const cp = require(\`child_\${part}\`);`, ["child-process"]],
    ["an array join", `const m = ["child", "process"].join("_"); import(m);`, ["child-process"]],
    ["String.fromCharCode", `require(String.fromCharCode(118, 109));`, ["vm"]],
    ["a constant declared after its use", `function load() { return require(NAME); } const NAME = "node:" + "net";`, ["network"]],
    ["an aliased require", `const r = require; const cp = r("child_process");`, ["child-process"]],
    ["createRequire", `import { createRequire } from "node:module"; const req = createRequire(import.meta.url); req("vm");`, ["vm"]],
    ["process.getBuiltinModule", `const cp = process.getBuiltinModule("child_process");`, ["child-process"]],
    ["computed member that folds", `import * as fs from "fs"; fs["write" + "File"]("x", "y");`, ["fs-write"]],
    ["optional chaining", `import fs from "fs"; fs?.promises?.writeFile?.("x", "y");`, ["fs-write"]],
    ["an aliased module object", `import * as fs from "fs"; const f = fs; const p = f.promises; p.rm("x");`, ["fs-write"]],
    ["an aliased function", `import { writeFileSync } from "fs"; const w = writeFileSync; w("x", "y");`, ["fs-write"]],
    ["Reflect.get", `import fs from "fs"; Reflect.get(fs, "unlink" + "Sync")("x");`, ["fs-write"]],
    ["globalThis.eval", `globalThis["ev" + "al"]("1");`, ["eval"]],
    ["an aliased global object", `const g = globalThis; const e = g.eval; e("1");`, ["eval"]],
    ["fetch taken from globalThis", `const { fetch: f } = globalThis; f("https://x");`, ["network"]],
    ["process.env destructured", `const { env } = process;`, ["env"]],
    ["process.env through globalThis", `const v = globalThis.process.env.SECRET;`, ["env"]],
    ["TypeScript wrappers", `const cp = (require as (id: string) => unknown)("child_process")!;`, ["child-process"]],
    ["import = require", `import cp = require("child_process");`, ["child-process"]],
    ["a named re-export", `export { exec } from "node:child_process";`, ["child-process"]],
    ["a star re-export of fs", `export * from "node:fs";`, ["fs-read", "fs-write"]],
    ["a re-exported write function", `export { writeFile as save } from "fs/promises";`, ["fs-write"]],
  ])("%s", (_name, code, expected) => {
    expect(rules(code)).toEqual(expected);
  });

  it.each([
    ["require of a runtime value", `const name = process.argv[2]; require(name);`, "dynamic-require"],
    ["import() of a runtime value", `const name = String(Math.random()); await import(name);`, "dynamic-import"],
    ["a computed fs member", `import * as fs from "fs"; const op = pick(); fs[op]("x");`, "dynamic-member"],
    ["a computed global", `const k = pick(); globalThis[k]("code");`, "dynamic-member"],
    ["a reversed string", `require("ssecorp_dlihc".split("").reverse().join(""));`, "dynamic-require"],
    ["fs.open with unknown flags", `import { openSync } from "fs"; openSync("x", mode());`, "fs-write"],
  ])("%s", (_name, code, expected) => {
    expect(rules(code)).toContain(expected);
  });

  it("does not let a local name in one function hide the global elsewhere", () => {
    expect(rules(`function a() { const fetch = () => 1; return fetch(); }\nexport const b = () => fetch("https://x");`)).toEqual(["network"]);
  });

  it("a top-level declaration of the same name is not the global", () => {
    expect(rules(`import { fetch } from "./my-fetch.js"; fetch("x");`)).toEqual([]);
  });

  // Node's module loader compiles strings (Module.prototype._compile) and loads files (_load, register,
  // module.require) that no import names, so neither the audit nor the approval hash would see them.
  it.each([
    ["Module.prototype._compile", `import Module from "node:module"; new Module("x")._compile("require('child_process')", "x.js");`],
    ["Module._load", `import Module from "module"; Module._load("./unaudited.cjs");`],
    ["module.register", `import { register } from "node:module"; register("./hooks.mjs", import.meta.url);`],
    ["registerHooks through a namespace", `import * as m from "node:module"; m.registerHooks({ load: f });`],
    ["the CommonJS module's constructor", `module.constructor._load("./unaudited.cjs");`],
    ["require.main's constructor", `require.main.constructor._load("./x.cjs");`],
    ["require.cache", `delete require.cache[key]; require.cache[key] = { exports: evil };`],
    ["require.extensions", `require.extensions[".txt"] = (m, f) => m._compile(read(f), f);`],
    ["process.mainModule", `process.mainModule.constructor._load("./x.cjs");`],
    ["a computed member of node:module", `const m = require("module"); m[pick()]("x");`],
  ])("reaching Node's module loader: %s", (_name, code) => {
    const found = rules(code);
    expect(found.includes("vm") || found.includes("dynamic-member"), found.join(",")).toBe(true);
  });

  it("follows module.require and require.main.require like require, and leaves the harmless parts of node:module alone", () => {
    const { references, findings } = scanSource(
      `const a = module.require("./a.js"); const b = require.main.require("./b.js"); module.exports = { a, b, id: module.id };\nimport { createRequire, isBuiltin, builtinModules } from "node:module"; createRequire(import.meta.url)("./c.js"); isBuiltin("fs"); builtinModules.length;`,
      "index.ts",
    );
    expect(references.map((reference) => reference.specifier).sort()).toEqual(["./a.js", "./b.js", "./c.js", "node:module"]);
    expect(findings).toEqual([]);
  });

  it("lists every module a file loads, for the plugin-level walk", () => {
    const { references } = scanSource(`import a from "./a.js"; export * from "./b.js"; const c = require("./c"); await import("zod");`, "index.ts");
    expect(references.map((reference) => reference.specifier)).toEqual(["./a.js", "./b.js", "./c", "zod"]);
  });
});
