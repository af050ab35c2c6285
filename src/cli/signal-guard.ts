import type { Writable } from "node:stream";
import { liveChildGroups, signalChildGroups } from "../util/child-groups.js";
import { releaseFifoReads } from "../util/fifo-reads.js";
import { installSignalGuard, type StopSignal } from "../util/signals.js";
import { ExitCode } from "../terminal/exit-codes.js";
import { pauseSpinners } from "../terminal/spinner.js";

/** 128 + the signal's number, as a shell reports a process a signal ended (docs/USAGE.md, Exit codes). */
export const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: ExitCode.Interrupted, SIGTERM: ExitCode.Terminated, SIGHUP: ExitCode.HungUp };

/** How long servers get to end on SIGTERM before SIGKILL (the same grace closing one server gives). */
const GRACE_MS = 1_000;

const SAID: Readonly<Record<StopSignal, string>> = { SIGINT: "interrupted (Ctrl-C)", SIGTERM: "stopped by SIGTERM", SIGHUP: "stopped: the terminal closed (SIGHUP)" };

/**
 * The whole CLI process's answer to a stop signal its command does not handle itself (src/util/signals.ts).
 * Node's default was to die on the spot, and every MCP server started so far, in a process group of
 * its own, went on running whenever it ignored the end of its stdin. Now the servers get SIGTERM,
 * then SIGKILL after a grace period, and the process exits 128 + the signal's number. A second signal
 * skips the grace period. Nothing is written after SIGHUP: the terminal is gone.
 */
export function guardSignals(stdout: Writable, stderr: Writable): void {
  let ending = false;
  installSignalGuard((signal) => {
    if (ending) {
      signalChildGroups("SIGKILL");
      releaseFifoReads();
      process.exit(SIGNAL_EXIT_CODES[signal]);
    }
    ending = true;
    void endProcess(signal, stdout, stderr);
  });
}

async function endProcess(signal: StopSignal, stdout: Writable, stderr: Writable): Promise<void> {
  const servers = liveChildGroups();
  if (signal !== "SIGHUP") {
    // Clears a spinner's line; the process ends, so nothing resumes it.
    pauseSpinners();
    const stopping = servers === 0 ? "" : `; stopping the ${servers === 1 ? "MCP server" : `${servers} MCP servers`} it started`;
    stderr.write(`mcpvm: ${SAID[signal]}${stopping}\n`);
  }
  // The command goes on running while its servers end, and would report their deaths (SIGTERM, a
  // broken pipe) as its own failure: that is what this signal did, not news, so it is not printed.
  mute(stdout);
  mute(stderr);
  signalChildGroups("SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  while (liveChildGroups() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  signalChildGroups("SIGKILL");
  releaseFifoReads();
  process.exit(SIGNAL_EXIT_CODES[signal]);
}

function mute(stream: Writable): void {
  stream.write = (_chunk: unknown, encodingOrDone?: unknown, done?: unknown): boolean => {
    const callback = typeof encodingOrDone === "function" ? encodingOrDone : done;
    if (typeof callback === "function") process.nextTick(callback);
    return true;
  };
}
