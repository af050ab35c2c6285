import { REDACTED } from "../../logging/redact.js";
import { hasSecretName, maskedParts } from "../config/secret-values.js";
import type { ApprovalSubject } from "./hash.js";
import { isPureReference } from "./launch-env.js";

/**
 * The one-line summary of what was approved (command and args, or the URL), kept in
 * approved-mcp.json and the audit log's `mcp.approve` entry so both can be read by eye. A definition
 * may spell out a credential (`--api-key sk-…`, `--token=ghp_…`, `https://user:pass@host/?access_token=…`),
 * and neither file may hold one (the log is often shipped elsewhere; the approval hash pins the
 * definition, not this text), so these are masked:
 * - the value of a flag whose name says it is secret (`--api-key X`, `--token=X`; a path stays);
 * - a URL's password, secret-looking query values and token-like path segments;
 * - token-shaped runs: 16 or more letters and digits mixed, or 32 or more of either.
 * `${VAR}` references stay as written: they name a variable, not its value.
 */
export function approvalSummary(subject: ApprovalSubject): string {
  if (subject.transport !== "stdio") return maskValue(subject.url ?? "");
  const args = subject.args ?? [];
  return [subject.command ?? "", ...args.map((arg, i) => maskArg(arg, i > 0 ? args[i - 1] : undefined))].join(" ");
}

const FLAG = /^--?[A-Za-z][\w.-]*$/;
const FLAG_WITH_VALUE = /^(--?[A-Za-z][\w.-]*)=(.*)$/s;
/** Letters and digits in a row: where a token sits inside `sk-proj-…` or `ghp_…`. */
const ALNUM_RUN = /[A-Za-z0-9]{16,}/g;

function maskArg(arg: string, previous: string | undefined): string {
  const flagged = FLAG_WITH_VALUE.exec(arg);
  if (flagged !== null) {
    const [, flag = "", value = ""] = flagged;
    return `${flag}=${secretFlagValue(flag, value) ? REDACTED : maskValue(value)}`;
  }
  if (previous !== undefined && FLAG.test(previous) && !arg.startsWith("-") && secretFlagValue(previous, arg)) return REDACTED;
  return maskValue(arg);
}

/** A value given to `--api-key` and the like, unless it cannot be one (a reference, a path, too short). */
function secretFlagValue(flag: string, value: string): boolean {
  return hasSecretName(flag.replace(/^-+/, "")) && value.length >= 4 && !isPureReference(value) && !/^(?:\/|~\/|\.\.?\/)/.test(value);
}

function maskValue(value: string): string {
  let shown = value;
  // maskedParts' first part is the value itself: only the credentials inside it are cut out here.
  for (const part of maskedParts(value).slice(1)) shown = shown.split(part).join(REDACTED);
  return shown.replace(ALNUM_RUN, (run) => (run.length >= 32 || (/[0-9]/.test(run) && /[A-Za-z]/.test(run)) ? REDACTED : run));
}
