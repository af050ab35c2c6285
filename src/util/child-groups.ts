/**
 * The process groups of the MCP servers this process started and that are still running.
 *
 * stdio servers start as process-group leaders (src/mcp/client-manager/stdio-transport.ts), so the
 * terminal's Ctrl-C never reaches them and they do not die with mcpvm: a server that ignores the end
 * of its stdin (or is busy) would outlive an mcpvm that was killed, interrupted or crashed. Whatever
 * ends the process (a signal, process.exit, an uncaught exception) can end them all from here,
 * without the host or the MCP client code (this module imports nothing, so the CLI's signal guard
 * loads it at start for free).
 */
const live = new Set<number>();
const GROUPS = process.platform !== "win32";
let exitHook = false;

/** A started server's leader pid; it is signalled as a group until `forgetChildGroup`. */
export function trackChildGroup(pid: number): void {
  live.add(pid);
  if (!exitHook) {
    exitHook = true;
    // The last moment anything runs: whatever is still tracked has not been closed and would be orphaned.
    process.on("exit", () => signalChildGroups("SIGKILL"));
  }
}

/** The leader exited (its transport has sent the rest of the group SIGKILL). */
export function forgetChildGroup(pid: number): void {
  live.delete(pid);
}

/** How many started servers are still running. */
export function liveChildGroups(): number {
  return live.size;
}

/** Sends `signal` to every live server's process group, synchronously. */
export function signalChildGroups(signal: NodeJS.Signals): void {
  for (const pid of live) {
    try {
      process.kill(GROUPS ? -pid : pid, signal);
    } catch {
      // ESRCH: the group ended and its exit event has not been handled yet.
    }
  }
}
