// A command whose promise never settles, once nothing is left for the event loop to wait for, ends the
// process with Node's exit code 13 and no word at all (or 0 when the launcher's await is not top-level).
// That is always a bug in mcpvm (a promise nobody resolves), and a script calling mcpvm would read the
// silence as whatever the code happens to mean. Said here instead, as an internal error with exit 1, the
// code every other internal error gets (src/terminal/report-error.ts).

/** What the watch needs of the process: its beforeExit and exit events, its exit code, its output streams. */
export interface ExitWatchedProcess {
  on(event: "beforeExit" | "exit", listener: (code: number) => void): unknown;
  removeListener(event: "beforeExit" | "exit", listener: (code: number) => void): unknown;
  exitCode?: number | string | null | undefined;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** The internal error's words: what stopped, that it is mcpvm's fault, and what helps the report. */
export function unsettledMessage(argv: readonly string[]): string {
  const command = argv.find((arg) => !arg.startsWith("-")) ?? "(no command)";
  return (
    `mcpvm stopped before \`${command}\` finished: it was left waiting for something that can no longer happen, so its result is unknown. ` +
    "This is a bug in mcpvm: please report it with the command line (MCPVM_DEBUG=1 adds detail)."
  );
}

/**
 * Watches the process until the command settles: call the returned function when it has (with any
 * result). If the event loop runs dry first and the process exits, writes an INTERNAL error (JSON on
 * stdout under --json, as reportError does) and makes the exit code 1. Only a drained loop counts
 * (`beforeExit`, which an explicit process.exit() skips): a command that ends the process itself, as
 * the signal guard does with 130, keeps its code.
 */
export function watchUnsettledExit(proc: ExitWatchedProcess, argv: readonly string[]): () => void {
  let drained = false;
  const onBeforeExit = (): void => {
    drained = true;
  };
  const onExit = (code: number): void => {
    if (!drained || code !== 0) return;
    const message = unsettledMessage(argv);
    if (argv.includes("--json")) proc.stdout.write(`${JSON.stringify({ ok: false, error: { code: "INTERNAL", message } })}\n`);
    else proc.stderr.write(`error [INTERNAL] ${message}\n`);
    proc.exitCode = 1;
  };
  proc.on("beforeExit", onBeforeExit);
  proc.on("exit", onExit);
  return () => {
    proc.removeListener("beforeExit", onBeforeExit);
    proc.removeListener("exit", onExit);
  };
}
