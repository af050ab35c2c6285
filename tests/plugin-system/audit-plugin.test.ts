import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditPlugin, type AuditInput, type Capability } from "../../src/plugin-system/index.js";
import { writeFiles } from "./helpers.js";

const run = promisify(execFile);
const REAL_LIB = `module.exports = () => { require("child_process"); return "ran the real one"; };\n`;
const DECOY_LIB = `module.exports = () => "ran the decoy";\n`;
let root: string;
let dir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcpvm-audit-"));
  dir = join(root, "plugin");
  await mkdir(dir);
});
afterEach(() => rm(root, { recursive: true, force: true }));

function input(capabilities: Capability[] = [], extra: Partial<AuditInput> = {}): AuditInput {
  return { name: "sample", codeDir: dir, entryFile: join(dir, "index.ts"), capabilities, ...extra };
}

describe("auditing a plugin folder", () => {
  it("follows relative imports, re-exports and literal require/import() through the folder", async () => {
    await writeFiles(dir, {
      "index.ts": `import { a } from "./lib/a.js";\nexport * from "./lib/b.js";\nconst c = await import("./c.mjs");\nexport default { a, c };\n`,
      "lib/a.ts": `import { helper } from "./helper";\nexport const a = helper();\n`,
      "lib/helper.ts": `export const helper = () => process.env.HOME;\n`,
      "lib/b.ts": `export const b = 2;\n`,
      "c.mjs": `import data from "./data.json" with { type: "json" };\nexport default data;\n`,
      "data.json": `{"x": 1}`,
      "unused.ts": `eval("never imported, never audited");\n`,
    });
    const report = await auditPlugin(input());
    expect(report.files.map((file) => file.path)).toEqual(["c.mjs", "data.json", "index.ts", "lib/a.ts", "lib/b.ts", "lib/helper.ts"]);
    expect(report.files.every((file) => /^[0-9a-f]{64}$/.test(file.sha256))).toBe(true);
    expect(report.findings).toEqual([
      {
        rule: "env",
        risk: "medium",
        capability: "env",
        declared: false,
        blocking: false,
        file: "lib/helper.ts",
        line: 1,
        column: 29,
        excerpt: "export const helper = () => process.env.HOME;",
        message: 'reads the environment (process.env): process.env (capability "env" is not declared in plugin.json)',
      },
    ]);
    expect(report.undeclaredCapabilities).toEqual(["env"]);
    expect(report.blocked).toBe(false);
  });

  it("raises the risk of a capability the manifest does not declare", async () => {
    await writeFiles(dir, { "index.ts": `import { writeFile } from "node:fs/promises";\nimport net from "node:net";\n` });
    const undeclared = await auditPlugin(input());
    const declared = await auditPlugin(input(["fs.write", "network"]));
    const risks = (report: typeof declared) => report.findings.map((finding) => [finding.rule, finding.risk, finding.declared]);
    expect(risks(undeclared)).toEqual([["fs-write", "high", false], ["network", "high", false]]);
    expect(risks(declared)).toEqual([["fs-write", "medium", true], ["network", "medium", true]]);
    expect(undeclared.highestRisk).toBe("high");
    expect(declared.highestRisk).toBe("medium");
  });

  it("keeps the risk of rules no declaration can cover", async () => {
    await writeFiles(dir, { "index.ts": `export const run = (code: string) => eval(code);\n` });
    const report = await auditPlugin(input(["fs.read", "fs.write", "network", "process", "env"]));
    expect(report.findings.map((finding) => [finding.rule, finding.risk, finding.declared])).toEqual([["eval", "critical", false]]);
    expect(report.unusedCapabilities).toEqual(["fs.read", "fs.write", "network", "process", "env"]);
  });

  it("finds evasions spread over files: an alias exported by one file and used in another", async () => {
    await writeFiles(dir, {
      "index.ts": `import { load } from "./loader.js";\nexport default load("x");\n`,
      "loader.ts": `const name = "child_" + "process";\nexport const load = (cmd: string) => require(name).execSync(cmd);\n`,
    });
    const report = await auditPlugin(input());
    expect(report.findings.map((finding) => `${finding.file}:${finding.line} ${finding.rule} ${finding.risk}`)).toEqual(["loader.ts:2 child-process critical"]);
  });

  it("refuses an import that leaves the folder, and blocks approval", async () => {
    await writeFiles(root, { "outside.ts": `export const x = 1;\n` });
    await writeFiles(dir, { "index.ts": `import { x } from "../outside.js";\nexport default x;\n` });
    const report = await auditPlugin(input());
    expect(report.blocked).toBe(true);
    expect(report.findings).toMatchObject([{ rule: "import-outside-plugin", risk: "critical", blocking: true, file: "index.ts", line: 1 }]);
    expect(report.files.map((file) => file.path)).toEqual(["index.ts"]);
  });

  it("allows type-only imports from outside (they are erased before the code runs)", async () => {
    await writeFiles(dir, { "index.ts": `import type { PluginRegistration } from "../../src/plugin-system/types.js";\nexport type R = PluginRegistration;\n` });
    expect((await auditPlugin(input())).findings).toEqual([]);
  });

  it("refuses a symbolic link that points out of the folder", async () => {
    await writeFiles(root, { "evil.ts": `eval("x");\n` });
    await symlink(join(root, "evil.ts"), join(dir, "linked.ts"));
    await writeFiles(dir, { "index.ts": `import "./linked.js";\n` });
    const report = await auditPlugin(input());
    expect(report.findings.map((finding) => finding.rule)).toEqual(["import-outside-plugin"]);
    expect(report.blocked).toBe(true);
  });

  // Node reads an import specifier as a URL: "?v=1" and "#x" are dropped, "%2e" is decoded, "\\" is "/",
  // tabs vanish. A decoy file literally named "helper.mjs?v=1" must not be what the audit reads and
  // hashes while Node runs helper.mjs, unaudited and free to change after approval.
  it.each([
    ["a query", "./helper.mjs?v=1", "helper.mjs?v=1"],
    ["a fragment", "./helper.mjs#x", "helper.mjs#x"],
    ["a percent-escape", "./helper%2emjs", "helper%2emjs"],
    ["a backslash", "./sub\\\\..\\\\helper.mjs", "sub\\..\\helper.mjs"],
    ["a tab", "./hel\\tper.mjs", "hel\tper.mjs"],
  ])("blocks a specifier with %s, which Node resolves to another file than the one on its literal path", async (_name, specifier, decoy) => {
    await writeFiles(dir, {
      "index.mjs": `import { greet } from "${specifier}";\nexport default greet;\n`,
      "helper.mjs": `import { execSync } from "node:child_process";\nexport const greet = () => "ran helper.mjs";\n`,
    });
    await writeFile(join(dir, decoy), `export const greet = () => "ran the decoy";\n`);
    // Plain Node (vitest's own import goes through vite's resolver, which reads specifiers differently).
    const { stdout } = await run(process.execPath, ["-e", "import(process.argv[1]).then((m) => console.log(m.default()))", pathToFileURL(join(dir, "index.mjs")).href]);
    expect(stdout.trim()).toBe("ran helper.mjs");
    const report = await auditPlugin(input([], { entryFile: join(dir, "index.mjs") }));
    expect(report.findings.map((finding) => [finding.file, finding.rule, finding.blocking])).toEqual([["index.mjs", "unresolved-import", true]]);
    expect(report.findings[0]?.message).toContain("write a plain relative path");
    expect(report.files.map((file) => file.path)).toEqual(["index.mjs"]);
  });

  // A plain .js file runs in Node, which never looks for lib.ts and reads a folder's package.json
  // "main": the audit must not guess a different file than the one Node's require picks.
  it.each([
    ["a TypeScript decoy beside the .js file", { "lib.js": REAL_LIB, "lib.ts": DECOY_LIB }],
    ["a folder whose package.json names another main", { "lib/real.js": REAL_LIB, "lib/package.json": `{"main": "real.js"}`, "lib/index.js": DECOY_LIB }],
  ])("blocks an extension-less require in a .js file: %s", async (_name, files) => {
    await writeFiles(dir, { "package.json": `{"type": "commonjs"}`, "index.js": `const lib = require("./lib");\nmodule.exports = lib;\n`, ...files });
    const { stdout } = await run(process.execPath, ["-e", "console.log(require(process.argv[1])())", join(dir, "index.js")]);
    expect(stdout.trim()).toBe("ran the real one");
    const report = await auditPlugin(input([], { entryFile: join(dir, "index.js") }));
    expect(report.findings.map((finding) => [finding.file, finding.rule, finding.blocking])).toEqual([["index.js", "unresolved-import", true]]);
    expect(report.findings[0]?.message).toContain("the file's full name");
  });

  it("blocks on a missing relative import and on a file that does not parse", async () => {
    await writeFiles(dir, { "index.ts": `import "./missing.js";\nimport "./broken.js";\n`, "broken.ts": `export const = ;\n` });
    const report = await auditPlugin(input());
    expect(report.findings.map((finding) => [finding.file, finding.rule, finding.line])).toEqual([
      ["broken.ts", "parse-error", 1],
      ["index.ts", "unresolved-import", 1],
    ]);
    expect(report.blocked).toBe(true);
  });

  it("reports packages: mcpvm's own dependencies (native plugins) low, anything else high", async () => {
    await writeFiles(dir, { "index.ts": `import { z } from "zod";\nimport left from "left-pad";\nimport { join } from "node:path";\n` });
    const report = await auditPlugin(input([], { trustedPackages: new Set(["zod"]) }));
    expect(report.findings.map((finding) => [finding.rule, finding.risk, finding.excerpt])).toEqual([
      ["external-dependency", "low", `import { z } from "zod";`],
      ["unaudited-dependency", "high", `import left from "left-pad";`],
    ]);
  });

  it("follows a native plugin's imports into mcpvm's own sources and names them mcpvm:src/…", async () => {
    const hostSourceDir = join(root, "src");
    await writeFiles(hostSourceDir, { "shared/jail.ts": `import { mkdir } from "node:fs/promises";\nexport const make = (p: string) => mkdir(p);\n` });
    await writeFiles(dir, { "index.ts": `import { make } from "../src/shared/jail.js";\nexport default make;\n` });
    await writeFile(join(root, "other.ts"), "export {};\n");
    const report = await auditPlugin(input(["fs.write"], { hostSourceDir }));
    expect(report.files.map((file) => file.path)).toEqual(["index.ts", "mcpvm:src/shared/jail.ts"]);
    expect(report.findings.map((finding) => [finding.file, finding.rule, finding.declared])).toEqual([["mcpvm:src/shared/jail.ts", "fs-write", true]]);
    const withoutHost = await auditPlugin(input(["fs.write"]));
    expect(withoutHost.findings.map((finding) => finding.rule)).toEqual(["import-outside-plugin"]);
  });
});
