import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { sharedQuickJsWorkers } from "../../src/sandbox/engines/quickjs-shared-pool.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { startupSteps } from "../../src/util/startup-trace.js";
import { captureIo } from "../support/cli-io.js";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * `mcpvm run` is a process that runs one script: it starts its engine's worker thread before loading
 * the CLI (src/cli/prespawn.ts) and its engine before the command (src/cli/engine-prestart.ts), starts exactly one worker (no replacement for the warm set
 * while the run ends), and a run that never reaches its host still disposes the engine it started.
 * Real QuickJS workers; the process case is a real child process.
 */
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-one-shot-"));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

const env = () => ({ MCPVM_HOME: home, HOME: home, PATH: process.env.PATH });

async function mcpvm(argv: string[]) {
  const io = captureIo(env(), "", home);
  const code = await runCli(argv, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe("a one-shot `mcpvm run`", () => {
  it("starts one worker thread, and no replacement for it", async () => {
    // This file's process has no QuickJS workers before (vitest runs each file in its own worker).
    const before = sharedQuickJsWorkers().spawned;
    const out = await mcpvm(["run", "-e", "return 6 * 7"]);
    expect(out).toMatchObject({ code: ExitCode.Ok, stdout: "42\n" });
    const after = sharedQuickJsWorkers();
    expect(after.spawned - before).toBe(1);
    expect(after.starting).toBe(0);
  }, 30_000);

  it("a usage error after the engine was started still exits 2 with the flag's message (the engine is disposed)", async () => {
    const out = await mcpvm(["run", "--timeout", "30", "-e", "return 1"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("30s");
    expect(sharedQuickJsWorkers().busy).toBe(0);
  }, 30_000);

  it("as a process: the worker starts before the command module loads, once, and the trace is off unless asked for", async () => {
    const run = (extra: Record<string, string>) =>
      promisify(execFile)(process.execPath, [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/e2e/fixtures/cli-entry.ts"), "--", "run", "-e", "return 1"], {
        cwd: ROOT,
        env: { ...process.env, MCPVM_HOME: home, ...extra },
        timeout: 60_000,
      });
    const traced = await run({ MCPVM_TRACE_STARTUP: "1" });
    expect(traced.stdout).toBe("1\n");
    // The worker thread's own steps ("worker: …") are in the trace too, without the main thread's CPU.
    const mainSteps = startupSteps(traced.stderr).filter(({ step }) => !step.startsWith("worker: "));
    const steps = mainSteps.map(({ step }) => step);
    expect(startupSteps(traced.stderr).map(({ step }) => step)).toEqual(expect.arrayContaining(["worker: program started", "worker: sandbox built"]));
    // On Linux each step of mcpvm's own says how much CPU the main thread has used so far, which only grows.
    const cpu = mainSteps.flatMap(({ mainThreadCpuMs }) => (mainThreadCpuMs === undefined ? [] : [mainThreadCpuMs]));
    if (process.platform === "linux") {
      expect(cpu.length).toBeGreaterThanOrEqual(steps.indexOf("command done"));
      expect(cpu).toEqual([...cpu].sort((a, b) => a - b));
      expect(cpu[0]).toBeGreaterThan(0);
    }
    // Started by the entry before the CLI loaded (src/cli/prespawn.ts), and taken by the engine's pool.
    expect(steps.filter((step) => step === "thread: spawn" || step === "thread: prespawned one taken")).toEqual(["thread: prespawned one taken"]);
    expect(steps.indexOf("thread: prespawned one taken")).toBeLessThan(steps.indexOf("command loaded"));
    const quiet = await run({});
    expect(quiet.stdout).toBe("1\n");
    expect(quiet.stderr).not.toContain("[startup]");
  }, 90_000);

  it("as a process with the in-thread engine (--engine or config.json `engine`): no worker thread is started", async () => {
    const configured = await mkdtemp(join(tmpdir(), "mcpvm-one-shot-inline-"));
    try {
      await writeFile(join(configured, "config.json"), JSON.stringify({ engine: "quickjs-inline" }));
      const run = (homeDir: string, argv: string[]) =>
        promisify(execFile)(process.execPath, [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/e2e/fixtures/cli-entry.ts"), "--", ...argv], {
          cwd: ROOT,
          env: { ...process.env, MCPVM_HOME: homeDir, MCPVM_TRACE_STARTUP: "1" },
          timeout: 60_000,
        });
      const threadStarts = (stderr: string) => startupSteps(stderr).filter(({ step }) => step === "thread: spawn" || step === "thread: prespawned one taken").length;
      const flagged = await run(home, ["--engine", "quickjs-inline", "run", "-e", "return 6 * 7"]);
      expect(flagged.stdout).toBe("42\n");
      expect(threadStarts(flagged.stderr)).toBe(0);
      const fromConfig = await run(configured, ["run", "--json", "-e", "return 6 * 7"]);
      expect(JSON.parse(fromConfig.stdout)).toMatchObject({ ok: true, result: 42 });
      expect(threadStarts(fromConfig.stderr)).toBe(0);
      // --engine wins over config.json: the worker engine gets its early worker.
      const worker = await run(configured, ["--engine", "quickjs", "run", "-e", "return 1"]);
      expect(worker.stdout).toBe("1\n");
      expect(threadStarts(worker.stderr)).toBe(1);
    } finally {
      await rm(configured, { recursive: true, force: true });
    }
  }, 120_000);

  it("runs scripts that skip the parser and scripts that need it alike: results, the parser's syntax errors and the TypeScript hint", async () => {
    // `return 6 * 7` skips the parser (src/sandbox/guest/plain-script.ts); a regular expression sends a script through it.
    expect(await mcpvm(["run", "-e", "return 6 * 7"])).toMatchObject({ code: ExitCode.Ok, stdout: "42\n" });
    expect(await mcpvm(["run", "-e", "return 6 * 7 + (/a+/.test('aa') ? 1 : 0)"])).toMatchObject({ code: ExitCode.Ok, stdout: "43\n" });
    for (const script of ["const x: number = 1;\nreturn x;", "const x: number = 1;\nreturn x; // /regex/ sends this one through the parser"]) {
      const out = await mcpvm(["run", "-e", script]);
      expect(out.code, script).toBe(ExitCode.GuestError);
      expect(out.stderr, script).toContain("TypeScript is not supported in a guest script");
    }
    const broken = await mcpvm(["run", "-e", "const a = 1;\nconst c = a +* 2;"]);
    expect(broken.code).toBe(ExitCode.GuestError);
    expect(broken.stderr).toContain("2 | const c = a +* 2;");
  }, 60_000);
});
