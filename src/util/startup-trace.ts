/**
 * MCPVM_TRACE_STARTUP=1: a time-stamped line on stderr at each step of a process's start and end
 * (ms since the process started), for reading where `mcpvm run`'s time goes (bench/RESULTS.md, "CLI").
 * Off, it is one property read per mark.
 */
const on = process.env.MCPVM_TRACE_STARTUP === "1";

export function traceStartup(step: string): void {
  if (on) process.stderr.write(`[startup] ${performance.now().toFixed(1).padStart(7)} ms  ${step}\n`);
}
