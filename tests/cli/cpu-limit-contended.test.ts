import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { execFile } from "node:child_process";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

/**
 * `cpuMs` is the guest's CPU time, not the wall time it spent running: on a busy machine the kernel
 * gives the guest's core to other processes, and that time used to count, so a script well inside
 * its CPU budget was ended with CPU_LIMIT (seen at load ~12). Here the run and two busy loops share
 * one core (taskset), so the guest gets at most a third of it: its counted CPU must be a fraction of
 * the wall time it ran (before, it was charged ~95 % of it), and a budget of 0.7 of that wall time
 * must be enough. The busy loops live only while a test runs, to spare the rest of the suite. Real `node bin/mcpvm.js`
 * processes, each engine; Linux only (taskset, /proc/thread-self/schedstat).
 */
const BIN = join(import.meta.dirname, "..", "..", "bin", "mcpvm.js");
const run = promisify(execFile);
const hasTaskset = (() => {
  try {
    execFileSync("taskset", ["-c", "0", "true"]);
    return existsSync("/proc/thread-self/schedstat");
  } catch {
    return false;
  }
})();

// About 0.15-0.25 s of compute on this machine when nothing competes.
const LOOP = "let s = 0; for (let i = 0; i < 3000000; i++) { s = (s * 31 + i) % 1000003; } return s;";

interface RunOutput {
  readonly ok: boolean;
  readonly code?: string;
  readonly stats?: { readonly cpuMs: number; readonly wallMs: number };
}

describe.skipIf(!hasTaskset)("the CPU limit on a core shared with other processes", () => {
  let home: string;
  let competitors: ChildProcess[] = [];
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "mcpvm-cpu-contended-"));
  });
  beforeEach(() => {
    competitors = [0, 1].map(() => spawn("taskset", ["-c", "0", process.execPath, "-e", "for(;;){}"], { stdio: "ignore" }));
  });
  afterEach(() => {
    for (const child of competitors) child.kill("SIGKILL");
  });
  afterAll(async () => rm(home, { recursive: true, force: true }));

  const contended = async (args: readonly string[], env: Record<string, string> = {}): Promise<RunOutput> => {
    const result = await run("taskset", ["-c", "0", process.execPath, BIN, "run", "--json", ...args], {
      env: { PATH: process.env.PATH, HOME: home, MCPVM_HOME: home, ...env },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    return JSON.parse(result.stdout) as RunOutput;
  };

  const cases: ReadonlyArray<readonly [string, readonly string[], Record<string, string>, string]> = [
    ["the worker engine, a thread per run (mcpvm run's mode)", [], {}, LOOP],
    // A log first, so the run is not moved to a thread of its own (shared mode moves a silent computing run).
    ["the worker engine in shared mode", [], { MCPVM_QUICKJS_WORKERS: "shared" }, `console.log("computing"); ${LOOP}`],
    ["the in-thread engine", ["--engine", "quickjs-inline"], {}, LOOP],
  ];

  for (const [name, args, env, code] of cases) {
    it(`${name}: counts the guest's CPU, not the time others had its core`, { timeout: 120_000 }, async () => {
      const first = await contended([...args, "-e", code], env);
      expect(first.ok, JSON.stringify(first)).toBe(true);
      const { cpuMs, wallMs } = first.stats as { cpuMs: number; wallMs: number };
      expect(cpuMs, `cpuMs ${cpuMs} of wallMs ${wallMs}`).toBeLessThan(wallMs * 0.7);
      const budget = Math.ceil(wallMs * 0.7);
      const second = await contended([...args, "--cpu", `${budget}ms`, "-e", code], env);
      expect(second.ok, `--cpu ${budget}ms (0.7 of the first run's wall): ${JSON.stringify(second)}`).toBe(true);
    });
  }
});
