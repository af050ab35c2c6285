import { readFileSync } from "node:fs";

/**
 * MCPVM_TRACE_STARTUP=1: a time-stamped line on stderr at each step of a process's start and end
 * (ms since the process started), for reading where `mcpvm run`'s time goes (bench/RESULTS.md, "CLI").
 * On Linux each line also has the CPU time the process's main thread has used so far: the worker
 * threads boot QuickJS meanwhile on other cores, so the process's own CPU total would mix the two.
 * Off, it is one property read per mark.
 */
const on = process.env.MCPVM_TRACE_STARTUP === "1";

export function traceStartup(step: string): void {
  if (on) process.stderr.write(`[startup] ${performance.now().toFixed(1).padStart(7)} ms  ${step}${mainThreadCpu()}\n`);
}

/** "  (main thread CPU 123.4 ms)" from /proc's scheduler statistics of the main thread, or "" where there are none. */
function mainThreadCpu(): string {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
    return Number.isFinite(ns) ? `  (main thread CPU ${(ns / 1e6).toFixed(1)} ms)` : "";
  } catch {
    return "";
  }
}

export interface StartupStep {
  readonly step: string;
  /** ms since the process started. */
  readonly at: number;
  /** The main thread's CPU time so far, where the line has it. */
  readonly mainThreadCpuMs: number | undefined;
}

/** The steps MCPVM_TRACE_STARTUP=1 printed, read back from a process's stderr in order. */
export function startupSteps(stderr: string): StartupStep[] {
  return [...stderr.matchAll(/^\[startup\]\s+([\d.]+) ms\s+(.+?)(?:\s+\(main thread CPU ([\d.]+) ms\))?$/gm)].map((match) => ({
    step: match[2] as string,
    at: Number(match[1]),
    mainThreadCpuMs: match[3] === undefined ? undefined : Number(match[3]),
  }));
}
