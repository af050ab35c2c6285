import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pino, { type Logger, type LevelWithSilent } from "pino";
import pinoPretty from "pino-pretty";
import type { Redactor } from "./redact.js";

export type { Logger };
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  readonly level?: LogLevelName;
  /** Secrets are masked in the final serialised line, so no field or message can carry one out. */
  readonly redactor?: Redactor;
  /** Write a JSON log file here as well (one file per run, named by start time). */
  readonly logsDir?: string;
  /** Where human-readable logs go. stdout is refused when stdout carries MCP (stdio gateway). */
  readonly console?: "stderr" | "none";
  /** Pretty-print on the console (defaults to: the console stream is a TTY). */
  readonly pretty?: boolean;
  /** The stream console logs go to (default: the process's stderr); never stdout when stdout carries MCP. */
  readonly consoleStream?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly clock?: () => Date;
}

export interface CreatedLogger {
  readonly logger: Logger;
  readonly file: string | undefined;
}

export function logFileName(now: Date): string {
  return `mcpvm_${now.toISOString().replace(/[:.]/g, "-")}.log`;
}

/** One logger per process; every face (CLI, REPL, gateway) passes it down instead of importing a global. */
export function createLogger(options: LoggerOptions = {}): CreatedLogger {
  const level: LevelWithSilent = options.level ?? "warn";
  const streams: pino.StreamEntry[] = [];
  let file: string | undefined;
  if (options.logsDir !== undefined) {
    mkdirSync(options.logsDir, { recursive: true, mode: 0o700 });
    file = join(options.logsDir, logFileName((options.clock ?? (() => new Date()))()));
    streams.push({ level: "trace", stream: pino.destination({ dest: file, sync: true, mode: 0o600 }) });
  }
  if ((options.console ?? "stderr") === "stderr" && level !== "silent") {
    const target = options.consoleStream;
    const pretty = options.pretty ?? (target ?? process.stderr).isTTY === true;
    const stream =
      target !== undefined
        ? pretty
          ? (pinoPretty({ destination: target, colorize: true, ignore: "pid,hostname" }) as pino.DestinationStream)
          : (target as pino.DestinationStream)
        : pretty
          ? (pino.transport({ target: "pino-pretty", options: { destination: 2, colorize: true, ignore: "pid,hostname" } }) as pino.DestinationStream)
          : pino.destination({ dest: 2, sync: true });
    streams.push({ level, stream });
  }
  const redactor = options.redactor;
  const logger = pino(
    {
      level: file === undefined ? level : minLevel(level, "debug"),
      base: { pid: process.pid },
      hooks: redactor ? { streamWrite: (line: string) => redactor.redact(line) } : {},
    },
    pino.multistream(streams),
  );
  return { logger, file };
}

function minLevel(a: LevelWithSilent, b: LevelWithSilent): LevelWithSilent {
  const order: LevelWithSilent[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}

/** For tests and library use: a logger that discards everything. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
