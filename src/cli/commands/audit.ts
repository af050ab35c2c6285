import { basename } from "node:path";
import { COMMAND_SUMMARIES } from "./summaries.js";
import { resolveConfigPaths } from "../../config/paths.js";
import { AUDIT_EVENTS, AuditLog, AuditLogError, type AuditEntry } from "../../audit-log/index.js";
import { parseCommandArgs, parseDuration, usageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { displayInline } from "../../terminal/display.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { formatTable, writeJson, writeLine } from "../../terminal/io.js";
import { didYouMean } from "../../util/suggest.js";
import { counted } from "../../util/counted.js";

/** Event families a prefix filter can name (`mcp.`, `mcp.tool.`, …), from the event names themselves. */
const EVENT_PREFIXES = [...new Set(AUDIT_EVENTS.flatMap((name) => name.split(".").slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join(".")}.`)))];

/** An --event that names no event and no family is a typo: refused with the closest name, not shown as "no entries". */
function knownEvent(event: string): string {
  if ((AUDIT_EVENTS as readonly string[]).includes(event) || EVENT_PREFIXES.includes(event)) return event;
  // A family without its dot (`plugin`) means the family; otherwise the closest event, then family.
  const suggestion = EVENT_PREFIXES.includes(`${event}.`) ? `; did you mean "${event}."?` : didYouMean(event, AUDIT_EVENTS) || didYouMean(event, EVENT_PREFIXES);
  throw usageError("audit", `--event "${event}" is no audit event${suggestion} (events: ${AUDIT_EVENTS.join(", ")}; a prefix with its dot, like mcp., takes a family)`);
}

/** What `audit log` shows unless told: enough for a screen of history, read from the end without reading the rest. */
const DEFAULT_LIMIT = 1000;

const USAGE = `Usage: mcpvm audit <command> [options]

The audit log (audit-log.jsonl in the config home, with the segments rotated out of it:
audit-log.1.jsonl the newest … kept as config.json "logs.audit" says) records every approval, revocation, held and
accepted tool, confirmation asked and answered, and information-flow decision: who (OS user), which
face (cli, repl, run, gateway, ui, demo), when, and what was decided. Each entry holds the SHA-256 of the one
before it, so an entry edited, removed or moved afterwards is found by \`audit verify\`. Secrets never
enter it.

Commands:
  log                  show the newest entries (oldest of them first)
  verify               check the hash chain through every kept segment; names the first broken entry

Options:
  --since <when>       log: only entries from this time on: a duration back from now (2h, 3d is 72h)
                       or a date/time (2026-11-25, 2026-11-25T10:00:00Z)
  --event <name>       log: only entries of this event (mcp.approve, mcp.flow, …; a prefix like mcp. works)
  --limit <n>          log: at most this many entries, the newest (default ${DEFAULT_LIMIT})
  --before <seq>       log: only entries before this one (#): the next page back is --before <the first # shown>
  --json               machine-readable output

Exit codes: 0 ok (verify: the chain is intact), 2 usage, 3 the chain is broken or the log unreadable.`;

const SUBCOMMANDS: readonly string[] = ["log", "verify"];

export const auditCommand: Command = {
  name: "audit",
  summary: COMMAND_SUMMARIES.audit,
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs("audit", args, { since: { type: "string" }, event: { type: "string" }, limit: { type: "string" }, before: { type: "string" } });
    const sub = positionals[0] ?? "log";
    // The command word is checked before the count: `audit shw x` is a typo, not "unexpected argument x".
    if (!SUBCOMMANDS.includes(sub)) throw usageError("audit", `unknown command "${sub}"${didYouMean(sub, SUBCOMMANDS)}`);
    if (positionals.length > 1) throw usageError("audit", `unexpected argument "${positionals[1]}"`);
    const paths = resolveConfigPaths(context.io.env);
    // Read-only: the user and face are never written by these commands.
    const log = new AuditLog({ file: paths.auditLogFile, headFile: paths.auditHeadFile, user: "", face: "cli" });
    if (sub === "verify") {
      if (values.since !== undefined || values.event !== undefined || values.limit !== undefined || values.before !== undefined) {
        throw usageError("audit", "--since, --event, --limit and --before belong to `audit log`, not `audit verify` (verify always checks the whole chain)");
      }
      return verify(log, context);
    }
    const since = typeof values.since === "string" ? parseSince(values.since, Date.now()) : undefined;
    const event = typeof values.event === "string" ? knownEvent(values.event) : undefined;
    const limit = typeof values.limit === "string" ? wholeNumber("--limit", values.limit) : DEFAULT_LIMIT;
    const before = typeof values.before === "string" ? wholeNumber("--before", values.before) : undefined;
    const filtered = since !== undefined || event !== undefined || before !== undefined;
    const tail = await log.tail({
      limit,
      ...(before === undefined ? {} : { before }),
      ...(since === undefined ? {} : { since }),
      ...(event === undefined ? {} : { match: (e: AuditEntry) => e.event === event || (event.endsWith(".") && e.event.startsWith(event)) }),
    });
    const { entries: shown, unreadable } = tail;
    if (context.json) {
      writeJson(context.io.stdout, { file: log.file, files: tail.files, entries: shown, unreadableLines: unreadable, ...(tail.olderBefore === undefined ? {} : { olderBefore: tail.olderBefore }) });
      return unreadable > 0 ? ExitCode.Config : ExitCode.Ok;
    }
    if (shown.length === 0) writeLine(context.io.stdout, !filtered && unreadable === 0 ? `The audit log is empty (${log.file}).` : "No entries match.");
    else writeLine(context.io.stdout, formatTable(shown.map(row), ["#", "TIME", "USER", "FACE", "EVENT", "SUBJECT", "DECISION", "DETAILS"].map((h) => context.colours.bold(h))));
    // Said after the table, where the eye is: older entries exist and how to see them.
    if (tail.olderBefore !== undefined) {
      writeLine(context.io.stderr, context.colours.dim(`Showing the newest ${shown.length} entries. Older ones: mcpvm audit log --before ${tail.olderBefore}${values.limit === undefined ? " (or --limit <n>)" : ""}`));
    }
    // The readable entries are still shown (the rest of a damaged log is evidence), but a log with
    // lines that cannot be read is a state-file problem: exit 3, as `audit verify` exits for it.
    if (unreadable > 0) writeLine(context.io.stderr, context.colours.yellow(`${counted(unreadable, "line")} of ${log.file} could not be read; run \`mcpvm audit verify\` to find the first broken entry.`));
    return unreadable > 0 ? ExitCode.Config : ExitCode.Ok;
  },
};

async function verify(log: AuditLog, context: CommandContext) {
  const verdict = await log.verify();
  if (context.json) {
    writeJson(context.io.stdout, { file: log.file, ...verdict });
    return verdict.ok ? ExitCode.Ok : ExitCode.Config;
  }
  if (verdict.ok) {
    const files = verdict.files ?? [];
    const where = files.length > 1 ? ` in ${files.length} files (${basename(files[0] ?? "")} … ${basename(files.at(-1) ?? "")})` : "";
    writeLine(context.io.stdout, `${context.colours.green("intact")}: ${verdict.entries} entries${where}, head #${verdict.head.seq} ${verdict.head.hash}`);
    // Not tampering: the oldest segments were deleted by rotation (config.json logs.audit.keep), or moved away by hand.
    if (verdict.from !== undefined) {
      writeLine(context.io.stdout, `Checked from entry #${verdict.from.seq} (${basename(verdict.from.file)} line ${verdict.from.line}): the entries before it are no longer kept (rotated out), so they could not be checked.`);
    }
    writeLine(context.io.stdout, context.colours.dim("Keep the head hash somewhere else to prove later that the log was not rewritten as a whole."));
    return ExitCode.Ok;
  }
  // Reported as an error with a stable code (exit 3), like any state file that cannot be trusted.
  const file = verdict.file ?? log.file;
  const from = verdict.from === undefined ? "" : ` (from entry ${verdict.from.seq} on: the ones before it are no longer kept)`;
  throw new AuditLogError("AUDIT_LOG_BROKEN", `${file}: ${verdict.message}. The ${verdict.intact} entries before it verify${from}; anything from entry ${verdict.seq} on cannot be trusted.`, {
    data: { file, line: verdict.line, seq: verdict.seq, problem: verdict.problem, intact: verdict.intact },
  });
}

function row(entry: AuditEntry): string[] {
  const details = entry.details === undefined ? "" : Object.entries(entry.details).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ");
  return [String(entry.seq), entry.time, entry.user, entry.face, entry.event, entry.subject, entry.decision, details].map((cell) => displayInline(cell));
}

function wholeNumber(flag: string, text: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw usageError("audit", `${flag} takes a whole number of 1 or more (e.g. ${flag} 100), not "${text}"`);
  return value;
}

/** `--since 2h` (back from now) or a date the Date parser takes; epoch ms. */
export function parseSince(text: string, now: number): number {
  if (/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/i.test(text.trim())) {
    const trimmed = text.trim().toLowerCase();
    const days = /^(\d+(?:\.\d+)?)\s*d$/.exec(trimmed);
    return now - (days !== null ? Number(days[1]) * 86_400_000 : parseDuration("audit", "--since", trimmed));
  }
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw usageError("audit", `--since ${text} is neither a duration (30m, 2h, 3d) nor a date (2026-11-25 or 2026-11-25T10:00:00Z)`);
  return parsed;
}
