import { parseArgs, type ParseArgsConfig } from "node:util";
import { McpvmError } from "../util/errors.js";
import { closestMatches, didYouMean } from "../util/suggest.js";

export class UsageError extends McpvmError<"USAGE"> {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags main.ts takes before a command sees its arguments; offered by did-you-mean as well. */
export const GLOBAL_FLAGS: readonly string[] = ["--json", "--yes", "--help", "--version", "--engine", "--log-level"];

/** node:util parseArgs with errors that say which command and how to get its usage. */
export interface ParsedCommandArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: string[];
}

/** `mcpvm run: <problem>. See `mcpvm run --help`.` — every argument error reads the same way. */
export function usageError(command: string, problem: string): UsageError {
  return new UsageError("USAGE", `mcpvm ${command}: ${problem}${/[.?!]$/.test(problem) ? "" : "."} See \`mcpvm ${command} --help\`.`);
}

/** `; did you mean --json?` or "" (flags are shown bare, as they are typed). */
export function didYouMeanFlag(input: string, flags: readonly string[]): string {
  const matches = closestMatches(input, flags);
  return matches.length === 0 ? "" : `; did you mean ${matches.join(" or ")}?`;
}

// A value that starts with a dash is still a value when it is a (negative) number or duration.
const looksLikeValue = (token: string): boolean => token === "-" || !token.startsWith("-") || /^-\d/.test(token);

/**
 * Our reading of the option syntax, so that no raw parseArgs message reaches a person: unknown
 * options get a did-you-mean, a missing value is named, and `--timeout -5s` is the value "-5s"
 * (parseArgs calls that ambiguous). Returns the arguments with every string option as `--name=value`.
 */
function normaliseOptions(command: string, args: readonly string[], options: Options): string[] {
  const known = Object.keys(options).map((name) => `--${name}`);
  const unknown = (token: string) => usageError(command, `unknown option ${token}${didYouMeanFlag(token.split("=")[0] as string, [...known, ...GLOBAL_FLAGS])}`);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i] as string;
    if (token === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (looksLikeValue(token)) {
      out.push(token);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (token.startsWith("--")) {
      const at = token.indexOf("=");
      name = at === -1 ? token.slice(2) : token.slice(2, at);
      inline = at === -1 ? undefined : token.slice(at + 1);
      if (!Object.hasOwn(options, name)) throw unknown(token);
    } else {
      const short = token.slice(1, 2);
      const found = Object.entries(options).find(([, option]) => option.short === short);
      if (found === undefined) throw unknown(token);
      name = found[0];
      inline = token.length > 2 ? token.slice(2) : undefined;
      if (options[name]?.type === "boolean") {
        if (inline !== undefined) throw unknown(token);
        out.push(`--${name}`);
        continue;
      }
    }
    const option = options[name] as NonNullable<Options[string]>;
    const shown = token.startsWith("--") ? `--${name}` : `-${option.short ?? ""}`;
    if (option.type === "boolean") {
      if (inline !== undefined) throw usageError(command, `${shown} takes no value (got "${inline}")`);
      out.push(`--${name}`);
      continue;
    }
    if (inline === undefined) {
      const next = args[i + 1];
      if (next === undefined || next === "--" || !looksLikeValue(next)) throw usageError(command, `${shown} needs a value`);
      inline = next;
      i++;
    }
    out.push(`--${name}=${inline}`);
  }
  return out;
}

export function parseCommandArgs(command: string, args: readonly string[], options: Options, maxPositionals = Infinity): ParsedCommandArgs {
  const normalised = normaliseOptions(command, args, options);
  let parsed: ParsedCommandArgs;
  try {
    parsed = parseArgs({ args: normalised, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Not expected after normaliseOptions; still never show parseArgs' own wording.
    throw usageError(command, (error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, "").split("\n")[0]?.replace(/\.$/, "") ?? "invalid arguments");
  }
  if (parsed.positionals.length > maxPositionals) {
    throw usageError(command, `unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  return parsed;
}

export function requirePositional(command: string, positionals: readonly string[], index: number, what: string): string {
  const value = positionals[index];
  if (value === undefined || value === "") throw usageError(command, `missing ${what}`);
  return value;
}

/** A REPL slash command (`/timeout 30`) is not `mcpvm <command>`: no "see mcpvm … --help" there. */
function valueError(command: string, flag: string, problem: string): UsageError {
  return flag.startsWith("/") ? new UsageError("USAGE", `${problem}${/[.?!]$/.test(problem) ? "" : "."}`) : usageError(command, problem);
}

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * "500ms", "30s", "2m", "1h", "1m30s" -> milliseconds. A bare number is refused: `--timeout 30` once
 * meant 30 ms, which nobody expects, so the error suggests `30s`.
 */
export function parseDuration(command: string, flag: string, text: string): number {
  const trimmed = text.trim().toLowerCase();
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) {
    throw valueError(command, flag, `${flag} ${text} has no unit; did you mean ${flag} ${trimmed.replace(/^\+/, "")}s? (durations look like 500ms, 30s, 2m or 1h)`);
  }
  if (trimmed.startsWith("-")) throw valueError(command, flag, `${flag} must be a positive duration (got "${text}")`);
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  if (!/^(\d+(?:\.\d+)?(ms|s|m|h))+$/.test(trimmed)) throw valueError(command, flag, `${flag} takes a duration like 500ms, 30s, 2m or 1h (got "${text}")`);
  let ms = 0;
  for (const [, amount, unit] of trimmed.matchAll(part)) ms += Number(amount) * (DURATION_UNITS[unit as string] as number);
  ms = Math.round(ms);
  if (ms <= 0) throw valueError(command, flag, `${flag} must be more than 0 (got "${text}")`);
  return ms;
}

const SIZE_UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 };

/**
 * "64MB", "512KB", "1GB" (or KiB, MiB, GiB; both count in 1024s, as memory does), "100B" -> bytes.
 * A bare number is refused like a bare duration: `--memory 64` is almost never 64 bytes.
 */
export function parseBytes(command: string, flag: string, text: string): number {
  const trimmed = text.trim();
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) {
    throw valueError(command, flag, `${flag} ${text} has no unit; did you mean ${flag} ${trimmed.replace(/^\+/, "")}MB? (sizes look like 512KB, 64MB or 1GB)`);
  }
  if (trimmed.startsWith("-")) throw valueError(command, flag, `${flag} must be a positive size (got "${text}")`);
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(trimmed);
  const factor = match === null ? undefined : SIZE_UNITS[(match[2] as string).toLowerCase()];
  if (match === null || factor === undefined) throw valueError(command, flag, `${flag} takes a size like 512KB, 64MB or 1GB (got "${text}")`);
  return Math.round(Number(match[1]) * factor);
}

/** 86400000 -> "24h", 1500 -> "1500ms": the largest unit that divides evenly, for range messages. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [["h", 3_600_000], ["m", 60_000], ["s", 1000]] as const) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

/** 2147483648 -> "2GB", 1048576 -> "1MB", 1 -> "1B". */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [["GB", 1024 ** 3], ["MB", 1024 ** 2], ["KB", 1024]] as const) if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  return `${bytes}B`;
}

/** `--memory must be between 1MB and 2GB (got 1KB)`: the range in the units the flag is written in. */
export function checkRange(command: string, flag: string, value: number, range: { min: number; max: number }, format: (n: number) => string, given: string): number {
  if (value < range.min || value > range.max || !Number.isFinite(value)) {
    throw usageError(command, `${flag} must be between ${format(range.min)} and ${format(range.max)} (got ${given})`);
  }
  return value;
}

/**
 * Why `word` is not one of `choices` (a subcommand or an action, `kind`), for a command that reads
 * its command word first: an option there (`gateway --toolset t token create x`) is said to be one,
 * not called an unknown subcommand "--toolset"; a typo gets a did-you-mean.
 */
export function unknownCommandWord(kind: string, word: string | undefined, choices: readonly string[]): string {
  const list = `(${choices.join(", ")})`;
  if (word === undefined) return `missing ${kind} ${list}`;
  if (word.startsWith("-")) return `${word} is an option: give the ${kind} first ${list}, then its options`;
  return `unknown ${kind} "${word}"${didYouMean(word, choices)} ${list}`;
}
