import { parseArgs, type ParseArgsConfig } from "node:util";
import { McpvmError } from "../util/errors.js";

export class UsageError extends McpvmError<"USAGE"> {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs with errors that say which command and how to get its usage. */
export interface ParsedCommandArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: string[];
}

export function parseCommandArgs(command: string, args: readonly string[], options: Options, maxPositionals = Infinity): ParsedCommandArgs {
  let parsed: ParsedCommandArgs;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError("USAGE", `${command}: ${(error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, "")}. See \`mcpvm ${command} --help\`.`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError("USAGE", `${command}: unexpected argument "${parsed.positionals[maxPositionals]}". See \`mcpvm ${command} --help\`.`);
  }
  return parsed;
}

export function requirePositional(command: string, positionals: readonly string[], index: number, what: string): string {
  const value = positionals[index];
  if (value === undefined || value === "") throw new UsageError("USAGE", `${command}: missing ${what}. See \`mcpvm ${command} --help\`.`);
  return value;
}

/** "30s", "1500ms", "2m" or a plain number of milliseconds. */
export function parseDuration(command: string, flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (match === null) throw new UsageError("USAGE", `${command}: ${flag} takes a duration like 500ms, 30s or 2m (got "${text}").`);
  const value = Number(match[1]);
  const factor = match[2] === "s" ? 1000 : match[2] === "m" ? 60_000 : 1;
  const ms = Math.round(value * factor);
  if (ms <= 0) throw new UsageError("USAGE", `${command}: ${flag} must be more than 0.`);
  return ms;
}

/** "64MB", "512KB", "1GB" or a plain number of bytes. */
export function parseBytes(command: string, flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(text.trim());
  if (match === null) throw new UsageError("USAGE", `${command}: ${flag} takes a size like 64MB or 512KB (got "${text}").`);
  const unit = (match[2] ?? "b").toLowerCase();
  const factor = unit === "kb" ? 1024 : unit === "mb" ? 1024 ** 2 : unit === "gb" ? 1024 ** 3 : 1;
  return Math.round(Number(match[1]) * factor);
}
