/** Exit codes that mean something to scripts (documented in docs/USAGE.md). */
export const ExitCode = {
  Ok: 0,
  /** The guest script failed (threw, or a tool call failed inside it). */
  GuestError: 1,
  /** Bad command-line usage. */
  Usage: 2,
  /** A config, manifest or approval file is invalid or unreadable. */
  Config: 3,
  /** A sandbox limit (cpu, wall, memory, output) ended the run. */
  Limit: 4,
  /** Something needs the user's approval first (plugin or MCP server). */
  ApprovalRequired: 5,
  /** An engine, server or other dependency is unavailable. */
  Unavailable: 6,
  /** Interrupted (Ctrl-C / SIGINT). */
  Interrupted: 130,
  /** The terminal closed (SIGHUP), for a command that does not answer it itself: 128 + 1. */
  HungUp: 129,
  /** Stopped by SIGTERM, for a command that does not answer it itself (serve and ui drain and exit 0): 128 + 15. */
  Terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
