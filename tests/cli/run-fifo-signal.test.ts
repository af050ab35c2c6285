import { spawn, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `mcpvm run <named pipe>` (as `mcpvm run <(…)` gives it) waits for a writer inside one of libuv's pool
 * threads, and Node's exit waits for that thread: a SIGTERM before anything was written printed "stopped
 * by SIGTERM" and then never ended the process (only SIGKILL did). Real `node bin/mcpvm.js` processes;
 * Linux's /proc tells when the process is blocked opening the pipe (`wait_for_partner`).
 */
const BIN = join(import.meta.dirname, "..", "..", "bin", "mcpvm.js");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-fifo-"));
  await mkdir(join(dir, "home"));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  return path;
}

function start(script: string) {
  const child = spawn(process.execPath, [BIN, "run", script], { env: { PATH: process.env.PATH, MCPVM_HOME: join(dir, "home"), HOME: join(dir, "home") }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, ended };
}

/** Whether one of the process's threads is blocked opening a FIFO that has no writer. */
function blockedOnFifo(pid: number): boolean {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return false;
  return readdirSync(tasks).some((task) => {
    try {
      return readFileSync(join(tasks, task, "wchan"), "utf8").includes("wait_for_partner");
    } catch {
      return false;
    }
  });
}

async function untilBlocked(pid: number): Promise<void> {
  while (!blockedOnFifo(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

const procKnowsWaits = process.platform === "linux" && existsSync("/proc/self/wchan");

describe.skipIf(!procKnowsWaits)("`mcpvm run` of a named pipe nobody has written to yet", () => {
  it.each([
    ["SIGTERM", 143, "mcpvm: stopped by SIGTERM"],
    ["SIGINT", 130, "mcpvm: interrupted (Ctrl-C)"],
  ] as const)("%s ends it (exit %i) with its usual line", async (signal, code, line) => {
    const { child, ended } = start(fifo(`never-${signal}`));
    await untilBlocked(child.pid as number);
    child.kill(signal);
    const out = await ended;
    expect(out.code).toBe(code);
    expect(out.stderr).toContain(line);
  }, 60_000);

  it("still runs the script a writer sends it", async () => {
    const pipe = fifo("written");
    const { child, ended } = start(pipe);
    await untilBlocked(child.pid as number);
    await writeFile(pipe, "return 6 * 7");
    const out = await ended;
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe("42");
  }, 60_000);
});
