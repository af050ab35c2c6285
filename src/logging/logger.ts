import { randomBytes } from "node:crypto";
import { constants, lstatSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import type pinoModule from "pino";
import type { Logger, LevelWithSilent } from "pino";
import { createRequire } from "node:module";
import { ownFileProblem } from "../util/own-file.js";
import { plainConsole } from "./plain-console.js";
import type { Redactor } from "./redact.js";

const EXCLUSIVE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

export type { Logger };

const require = createRequire(import.meta.url);
/**
 * pino, loaded with the first logger that writes (it is tens of ms of a `mcpvm run` that logs
 * nothing at its level, which is most runs). A CommonJS package: `require` loads it synchronously.
 */
function loadPino(): typeof pinoModule {
  return require("pino") as typeof pinoModule;
}
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  readonly level?: LogLevelName;
  /** Secrets are masked in the final serialised line, so no field or message can carry one out. */
  readonly redactor?: Redactor;
  /**
   * Write a JSON log file here as well (one file per run, named by start time), only at debug
   * level and below (debug, trace) unless `logFile: "always"`. A folder or file that cannot be
   * written never stops the run: logs then go to the console only, with one warning.
   */
  readonly logsDir?: string;
  readonly logFile?: "debug" | "always";
  /** Where human-readable logs go. stdout is refused when stdout carries MCP (stdio gateway). */
  readonly console?: "stderr" | "none";
  /** Pretty-print on the console (defaults to: the console stream is a TTY). */
  readonly pretty?: boolean;
  /** When not pretty: plain `mcpvm: warning: …` lines (CLI commands) instead of JSON records (the default, for the gateway). */
  readonly plain?: boolean;
  /** The stream console logs go to (default: the process's stderr); never stdout when stdout carries MCP. */
  readonly consoleStream?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly clock?: () => Date;
}

export interface CreatedLogger {
  readonly logger: Logger;
  readonly file: string | undefined;
  /** Why no log file was written although one was asked for (the folder is not writable). */
  readonly fileProblem: string | undefined;
}

export function logFileName(now: Date): string {
  return `mcpvm_${now.toISOString().replace(/[:.]/g, "-")}.log`;
}

/**
 * One logger per process; every face (CLI, REPL, gateway) passes it down instead of importing a global.
 * Without a log file, pino and the console stream are set up by the first line at the logger's level
 * (deferredLogger): until then a call below the level costs a comparison.
 */
export function createLogger(options: LoggerOptions = {}): CreatedLogger {
  const level: LevelWithSilent = options.level ?? "warn";
  const wantsFile = options.logsDir !== undefined && (options.logFile === "always" || level === "debug" || level === "trace");
  if (!wantsFile) return { logger: deferredLogger(level, () => pinoLogger(options, level, false).logger), file: undefined, fileProblem: undefined };
  return pinoLogger(options, level, true);
}

function pinoLogger(options: LoggerOptions, level: LevelWithSilent, wantsFile: boolean): CreatedLogger {
  const pino = loadPino();
  const streams: pinoModule.StreamEntry[] = [];
  let file: string | undefined;
  let fileProblem: string | undefined;
  if (wantsFile && options.logsDir !== undefined) {
    const opened = openLogFile(pino, options.logsDir, logFileName((options.clock ?? (() => new Date()))()));
    if (opened.ok) {
      file = opened.file;
      streams.push({ level: "trace", stream: opened.stream });
    } else fileProblem = opened.problem;
  }
  if ((options.console ?? "stderr") === "stderr" && level !== "silent") {
    const target = options.consoleStream;
    const pretty = options.pretty ?? (target ?? process.stderr).isTTY === true;
    const stream =
      target !== undefined
        ? pretty
          ? (prettyStream(target) as pinoModule.DestinationStream)
          : options.plain === true
            ? (plainConsole(target) as unknown as pinoModule.DestinationStream)
            : (target as pinoModule.DestinationStream)
        : pretty
          ? (pino.transport({ target: "pino-pretty", options: { destination: 2, colorize: true, ignore: "pid,hostname" } }) as pinoModule.DestinationStream)
          : pino.destination({ dest: 2, sync: true });
    streams.push({ level, stream });
  }
  const redactor = options.redactor;
  if (fileProblem !== undefined && (options.console ?? "stderr") === "stderr") {
    // Said once, on the console only: the run goes on without a log file.
    (options.consoleStream ?? process.stderr).write(`mcpvm: warning: ${fileProblem}; logging to stderr only\n`);
  }
  const logger = pino(
    {
      level: file === undefined ? level : minLevel(level, "debug"),
      base: { pid: process.pid },
      hooks: redactor ? { streamWrite: (line: string) => redactor.redact(line) } : {},
    },
    pino.multistream(streams),
  );
  return { logger, file, fileProblem };
}

/** pino-pretty is loaded only when a person's terminal gets pretty logs (it is not small). */
function prettyStream(destination: NodeJS.WritableStream): unknown {
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
  return pretty({ destination, colorize: true, ignore: "pid,hostname" });
}

type OpenedLogFile = { readonly ok: true; readonly file: string; readonly stream: pinoModule.DestinationStream } | { readonly ok: false; readonly problem: string };

/** The per-run log file, or why it cannot be written (read-only home, a file where the folder should be). */
function openLogFile(pino: typeof pinoModule, dir: string, name: string): OpenedLogFile {
  let file = join(dir, name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Log names are predictable: another account that can write the folder could plant a link
    // named like the next log and have server stderr appended to any file of ours. So the folder
    // must be a real one of ours, and the file is created new (O_EXCL) without following a link;
    // a name already taken gets an unpredictable suffix instead.
    const folder = lstatSync(dir);
    const problem = folder.isSymbolicLink() ? "is a symbolic link" : ownFileProblem(dir, folder)?.problem;
    if (problem !== undefined) return { ok: false, problem: `not writing a log file: ${dir} ${problem}` };
    let fd: number;
    try {
      fd = openSync(file, EXCLUSIVE_NO_FOLLOW, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      file = join(dir, name.replace(/\.log$/, `_${randomBytes(8).toString("hex")}.log`));
      fd = openSync(file, EXCLUSIVE_NO_FOLLOW, 0o600);
    }
    return { ok: true, file, stream: pino.destination({ fd, sync: true }) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "EACCES" || code === "EPERM" || code === "EROFS" ? "permission denied" : code === "EEXIST" || code === "ENOTDIR" ? "a file is in the way" : (error as Error).message;
    return { ok: false, problem: `cannot write the log file ${file}: ${why}` };
  }
}

function minLevel(a: LevelWithSilent, b: LevelWithSilent): LevelWithSilent {
  const order: LevelWithSilent[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}

/** For tests and library use: a logger that discards everything. */
export function silentLogger(): Logger {
  return deferredLogger("silent", () => loadPino()({ level: "silent" }));
}

const LEVEL_VALUES: Readonly<Record<LevelWithSilent, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/**
 * A pino Logger that builds the real one (`create`) when a line at or above `level` is first
 * written, or when anything other than the log methods is used (child loggers, bindings, level
 * changes: a Proxy hands those to the real logger). Lines below the level are dropped as pino would.
 */
export function deferredLogger(level: LevelWithSilent, create: () => Logger): Logger {
  let real: Logger | undefined;
  const materialize = (): Logger => (real ??= create());
  const threshold = LEVEL_VALUES[level];
  const method =
    (name: Exclude<LevelWithSilent, "silent">) =>
    (...args: unknown[]): void => {
      if (real === undefined && LEVEL_VALUES[name] < threshold) return;
      (materialize()[name] as (...a: unknown[]) => void)(...args);
    };
  const own: Record<string, unknown> = {
    trace: method("trace"),
    debug: method("debug"),
    info: method("info"),
    warn: method("warn"),
    error: method("error"),
    fatal: method("fatal"),
    isLevelEnabled: (name: string) => (real === undefined ? (LEVEL_VALUES[name as LevelWithSilent] ?? 0) >= threshold : real.isLevelEnabled(name)),
    flush: (done?: (error?: Error) => void) => (real === undefined ? done?.() : real.flush(done)),
  };
  return new Proxy(own, {
    get(target, property) {
      if (typeof property === "string" && Object.hasOwn(target, property)) return target[property];
      if (property === "level" && real === undefined) return level;
      const logger = materialize();
      const value: unknown = Reflect.get(logger, property);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(logger) : value;
    },
    set(_target, property, value) {
      return Reflect.set(materialize(), property, value);
    },
  }) as unknown as Logger;
}
