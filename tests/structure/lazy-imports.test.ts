import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Packages every `mcpvm` command would pay for at start if they were imported statically: the
 * LLM SDK (agent, second opinion), the HTTP server and MCP server SDK (gateway), pino-pretty.
 * They load when the command that needs them runs (dynamic import()).
 */
const HEAVY = ["ai", "@ai-sdk/anthropic", "@ai-sdk/openai-compatible", "@hono/node-server", "hono", "@modelcontextprotocol/server", "@modelcontextprotocol/node", "pino-pretty"];

/**
 * What the dispatcher itself must not load either: each command (src/cli/commands/index.ts) and the
 * host are imported when a command runs, so `--help`, a usage error or completion start without them.
 */
const COMMAND_ONLY = ["zod", "@babel/parser", "@modelcontextprotocol/client", "@cfworker/json-schema", "proper-lockfile"];

/** Files and packages reachable from `file` through static `import … from` (not `import type`, not import()). */
function staticGraph(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith(".")) {
        const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
        if (existsSync(target)) visit(target);
      } else if (!specifier.startsWith("node:")) {
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string);
        if (!packages.has(name)) packages.set(name, file.slice(ROOT.length + 1));
      }
    }
  };
  visit(entry);
  return { files, packages };
}

describe("the CLI's start loads only what every command needs", () => {
  it("src/cli/main.ts does not statically reach the LLM SDK, the gateway's servers or pino-pretty", () => {
    const { packages } = staticGraph(resolve(ROOT, "src/cli/main.ts"));
    expect(HEAVY.filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)})`)).toEqual([]);
  });

  it("src/cli/main.ts loads no command and no host: not zod, the MCP client SDK or the parser", () => {
    const { files, packages } = staticGraph(resolve(ROOT, "src/cli/main.ts"));
    expect(COMMAND_ONLY.filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)})`)).toEqual([]);
    expect([...files].filter((file) => /src\/(cli\/commands\/(?!index|summaries)|host\/)/.test(file)).map((file) => file.slice(ROOT.length + 1))).toEqual([]);
  });

  it("the host (what `mcpvm run` opens) loads the MCP client SDK only with a server's first connection", () => {
    const { packages } = staticGraph(resolve(ROOT, "src/host/index.ts"));
    expect(["@modelcontextprotocol/client", "@modelcontextprotocol/core"].filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)})`)).toEqual([]);
    // The check can fail: the connection itself does import it.
    expect(staticGraph(resolve(ROOT, "src/mcp/client-manager/connection.ts")).packages.has("@modelcontextprotocol/client")).toBe(true);
  });

  it("`mcpvm run` starts its QuickJS worker from a module that loads neither the parser nor zod", () => {
    const { packages } = staticGraph(resolve(ROOT, "src/cli/engine-prestart.ts"));
    expect(["@babel/parser", "zod"].filter((name) => packages.has(name)).map((name) => `${name} (from ${packages.get(name)})`)).toEqual([]);
  });

  it("the `run` command and the host load no MCP service: it is imported when first used", () => {
    const mcpFiles = (entry: string) => [...staticGraph(resolve(ROOT, entry)).files].filter((file) => /src\/mcp\/(service\/|audit\/|type-generator\/|elicitation\/|client-manager\/client-manager\.ts|oauth\/index\.ts)/.test(file)).map((file) => file.slice(ROOT.length + 1));
    expect(mcpFiles("src/cli/commands/run.ts")).toEqual([]);
    expect(mcpFiles("src/host/index.ts")).toEqual([]);
    // What the host imports when the mcp plugin loads: the config's validation, the module table and the
    // tools table, none of the service (client manager, audit, type generator, approvals, OAuth).
    expect(mcpFiles("src/host/mcp-setup.ts").filter((file) => !/src\/mcp\/service\/(module-table|tools-table)\.ts$/.test(file))).toEqual([]);
    expect([...staticGraph(resolve(ROOT, "src/host/mcp-setup.ts")).files].filter((file) => /src\/mcp\/(approval|pins|oauth|client-manager|audit|type-generator)\//.test(file)).map((file) => file.slice(ROOT.length + 1))).toEqual([]);
    // The check can fail: the module the host imports with the service's first build does reach them.
    expect(mcpFiles("src/host/mcp-parts.ts").length).toBeGreaterThan(0);
  });

  it("`mcpvm run` of a script that needs no transform (`return 1`) does not load the parser: only import() reaches it", () => {
    // The run command, the host with its plugin manager, both QuickJS engines, result building.
    for (const entry of ["src/cli/commands/run.ts", "src/host/index.ts", "src/sandbox/engines/quickjs.ts", "src/sandbox/engines/quickjs-inline.ts", "src/sandbox/select.ts", "src/sandbox/host/outcome.ts"]) {
      const { packages } = staticGraph(resolve(ROOT, entry));
      expect(packages.has("@babel/parser") ? `${entry} reaches @babel/parser from ${packages.get("@babel/parser")}` : "").toBe("");
    }
    // The check can fail: the transform (loaded when a script needs it) and the plugin auditor do reach it.
    expect(staticGraph(resolve(ROOT, "src/sandbox/guest/transform-cache.ts")).packages.has("@babel/parser")).toBe(true);
    expect(staticGraph(resolve(ROOT, "src/plugin-system/index.ts")).packages.has("@babel/parser")).toBe(true);
  });

  it("`mcpvm run` loads the completion tables and the engines it does not use only by import()", () => {
    const main = staticGraph(resolve(ROOT, "src/cli/main.ts")).files;
    expect([...main].filter((file) => file.includes("/src/cli/completion/")).map((file) => file.slice(ROOT.length + 1))).toEqual([]);
    // A thread-mode run (what `mcpvm run` uses) needs neither the shared engine, the in-thread one nor the Hyperlight probe's addon check.
    const engines = [...staticGraph(resolve(ROOT, "src/sandbox/select.ts")).files].map((file) => file.slice(ROOT.length + 1));
    expect(engines.filter((file) => /src\/sandbox\/engines\/(quickjs-shared-engine|quickjs-inline|hyperlight\/(probe|addon))\.ts$/.test(file))).toEqual([]);
    // The checks can fail: those modules do reach what is kept out.
    expect(staticGraph(resolve(ROOT, "src/cli/completion/complete.ts")).files.has(resolve(ROOT, "src/cli/completion/candidates.ts"))).toBe(true);
    expect(staticGraph(resolve(ROOT, "src/sandbox/engines/quickjs-shared-engine.ts")).files.has(resolve(ROOT, "src/sandbox/engines/quickjs-inline-run.ts"))).toBe(true);
    expect(engines).toContain("src/sandbox/engines/quickjs.ts");
  });

  it("the check sees real imports (it can fail): the gateway and `run` do reach them", () => {
    const { packages } = staticGraph(resolve(ROOT, "src/gateway/index.ts"));
    expect(packages.has("@modelcontextprotocol/server")).toBe(true);
    const run = staticGraph(resolve(ROOT, "src/cli/commands/run.ts"));
    expect(run.packages.has("zod")).toBe(true);
  });
});
