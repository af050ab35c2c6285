/**
 * One thing `mcpvm doctor` (and the REPL banner) found. `kind` picks the exit code (config 3,
 * approval 5, unavailable 6); warnings are reported but do not fail the check.
 */
export type ProblemKind = "config" | "approval" | "unavailable";

export interface Problem {
  readonly severity: "error" | "warning";
  readonly kind: ProblemKind;
  /** What it is about: "config.json", "server memory", "mcp plugin", a file name. */
  readonly subject: string;
  readonly message: string;
  /** The command or edit that fixes it. */
  readonly next: string | undefined;
  /** The stable error code behind it, when there is one. */
  readonly code: string | undefined;
}

export function problem(severity: Problem["severity"], kind: ProblemKind, subject: string, message: string, next?: string, code?: string): Problem {
  return { severity, kind, subject, message, next, code };
}

export function errors(problems: readonly Problem[]): Problem[] {
  return problems.filter((p) => p.severity === "error");
}
