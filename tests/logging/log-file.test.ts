import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../../src/gateway/index.js";
import { createLogger } from "../../src/logging/logger.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * Logging never kills a run, and a log file is only written at debug level (or when asked): a
 * folder that cannot be written means console-only logs with one warning. At debug level the file
 * traces every start (spawn, initialize, tools/list) and every call with its time.
 */

function console(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stream, text: () => text };
}

describe("createLogger", () => {
  it("writes no file below debug level, even when given a logs folder", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "mcpvm-log-")), "logs");
    for (const level of ["info", "warn", "error"] as const) expect(createLogger({ level, logsDir: dir, consoleStream: console().stream }).file).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
  });

  it("writes a file at debug level, or at any level when asked", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "mcpvm-log-")), "logs");
    const debug = createLogger({ level: "debug", logsDir: dir, consoleStream: console().stream });
    debug.logger.debug({}, "a debug line");
    expect(readFileSync(debug.file ?? "", "utf8")).toContain("a debug line");
    expect(createLogger({ level: "warn", logsDir: dir, logFile: "always", consoleStream: console().stream }).file).toBeDefined();
  });

  it("a logs path that cannot be written: no throw, console only, one warning", () => {
    const root = mkdtempSync(join(tmpdir(), "mcpvm-log-"));
    writeFileSync(join(root, "logs"), "a file where the folder should be");
    const out = console();
    const created = createLogger({ level: "debug", logsDir: join(root, "logs"), consoleStream: out.stream, pretty: false });
    created.logger.warn({}, "still logging");
    expect(created.file).toBeUndefined();
    expect(created.fileProblem).toContain(`cannot write the log file ${join(root, "logs")}`);
    expect(out.text().split("logging to stderr only").length - 1).toBe(1);
    expect(out.text()).toContain("still logging");
  });
});

describe("--log-level debug through the CLI", () => {
  let home: E2eHome;
  beforeAll(async () => {
    home = await makeHome({ servers: (dir) => ({ echo: fixtureServer(join(dir, "echo.starts")) }) });
  });
  afterAll(async () => home?.cleanup());

  it("the log file traces spawn, initialize, tools/list and the call with their times", async () => {
    const out = await cli(home, ["--log-level", "debug", "--yes", "run", "-"], `return require("host:mcp-echo").echo({ text: "traced" });`);
    expect(out.code).toBe(0);
    const files = readdirSync(join(home.dir, "logs"));
    expect(files).toHaveLength(1);
    const lines = readFileSync(join(home.dir, "logs", files[0] ?? ""), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { phase?: string; ms?: number; server?: string; tool?: string });
    const phases = lines.filter((l) => l.server === "echo" && l.phase !== undefined);
    expect(phases.map((l) => l.phase)).toEqual(["spawn", "initialize", "tools/list", "call"]);
    expect(phases.every((l) => typeof l.ms === "number")).toBe(true);
    expect(phases[3]).toMatchObject({ tool: "echo" });
  });

  it("a home whose logs folder cannot be made still runs, with one warning", async () => {
    const blocked = await makeHome({ servers: {}, mcpPlugin: false });
    try {
      writeFileSync(join(blocked.dir, "logs"), "not a folder");
      const out = await cli(blocked, ["--log-level", "debug", "run", "-"], "return 6 * 7;");
      expect(out.code).toBe(0);
      expect(out.stdout).toBe("42\n");
      expect(out.stderr.split("cannot write the log file").length - 1).toBe(1);
    } finally {
      await blocked.cleanup();
    }
  });

  it("warnings of CLI commands on a non-terminal stderr are plain lines, not JSON records", async () => {
    const typo = await makeHome({ servers: {} });
    try {
      const file = join(typo.dir, "config.json");
      const config = JSON.parse(readFileSync(file, "utf8")) as { mcpServers: Record<string, unknown> };
      config.mcpServers.a = { comand: "node" };
      writeFileSync(file, JSON.stringify(config));
      // Plugins load at a script's first require of one of their modules (src/host/deferred-plugins.ts).
      const out = await cli(typo, ["run", "-"], 'try { require("host:mcp-a"); } catch {} return 1 + 1;');
      expect(out).toMatchObject({ code: 0, stdout: "2\n" });
      expect(out.stderr).toContain('mcpvm: warning: plugin mcp: createHostFunctions failed: ');
      expect(out.stderr).toContain('mcpServers.a: Unrecognized key: "comand"');
      expect(out.stderr).not.toContain('{"level"');
    } finally {
      await typo.cleanup();
    }
  });

  it("serve at its default level (info) writes no log file", async () => {
    const running = await startGateway({ env: home.env, stdin: new PassThrough(), stdout: new PassThrough(), pretty: false });
    try {
      expect(running.logFile).toBeUndefined();
    } finally {
      await running.close();
    }
    expect(existsSync(join(home.dir, "logs")) ? readdirSync(join(home.dir, "logs")) : []).toHaveLength(1); // only the debug run's file above
  });
});
