import { errorMessage, type McpvmError } from "../../util/errors.js";
import type { McpServerLaunch } from "../types.js";
import { packageRunner, PACKAGE_RUNNER_CONNECT_TIMEOUT_MS } from "./connect-timeout.js";
import { McpConnectError, McpTransportError } from "./errors.js";
import { describeHttpFailure, httpStatusOf } from "./http-failure.js";
import { missingCommandHint } from "./command-hints.js";
import type { ExitInfo } from "./stdio-transport.js";
import { counted } from "../../util/counted.js";

export interface StartupDiagnostics {
  readonly server: string;
  readonly exit: ExitInfo | undefined;
  /** Lines on stdout that were not JSON-RPC. */
  readonly garbageLines: number;
  /** The first such line, redacted. */
  readonly garbageSample: string | undefined;
  /** Last stderr lines, already redacted. */
  readonly stderrTail: string;
  readonly redact: (text: string) => string;
  /** What was started or contacted, for messages that name the command or URL. */
  readonly launch?: McpServerLaunch;
  /** config.json, named where a message says which setting to change. */
  readonly configFile?: string;
}

const SPAWN_ERROR_CODES = new Set(["ENOENT", "EACCES", "ENOTDIR", "EPERM"]);

function spawnErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return code !== undefined && SPAWN_ERROR_CODES.has(code) && syscall?.startsWith("spawn") === true ? code : undefined;
}

/** The message plus the cause's errno code, since fetch says only "fetch failed". */
function describeError(error: unknown): string {
  // The SDK validates an answer by recursion: one nested thousands of levels deep (a tool's input
  // schema, most likely) overflows the stack before mcpvm's own depth cap can drop the tool.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return "its answer is nested too deeply to be read (a tool's inputSchema, most likely; mcpvm drops tools nested deeper than 32 levels, but this one could not even be parsed). Fix the server, or remove it from config.json";
  }
  const message = errorMessage(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return `${message} (${code ?? cause.message})`;
  }
  return message;
}

export function describeExit(exit: ExitInfo): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.code ?? "unknown"}`;
}

function details(diag: StartupDiagnostics): string {
  const parts: string[] = [];
  if (diag.garbageLines > 0) {
    const sample = diag.garbageSample === undefined ? "" : `, the first: ${JSON.stringify(diag.garbageSample)}`;
    parts.push(` It wrote ${counted(diag.garbageLines, "line")} on stdout that ${diag.garbageLines === 1 ? "is" : "are"} not JSON-RPC${sample} (an MCP stdio server must log to stderr only).`);
  }
  if (diag.stderrTail.length > 0) parts.push(` Last stderr lines:\n${diag.stderrTail}`);
  return parts.join("");
}

function commandLine(launch: McpServerLaunch): string {
  if (launch.transport !== "stdio") return launch.url;
  return [launch.command, ...launch.args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(" ");
}

/** Where the timeout is set: the exact JSON path, and the CLI way. */
function raiseTimeoutHint(diag: StartupDiagnostics, suggestedMs: number): string {
  const file = diag.configFile ?? "config.json";
  const seconds = Math.ceil(suggestedMs / 1000);
  return (
    `set mcpServers.${diag.server}.connectTimeoutMs to ${suggestedMs} in ${file} ("${diag.server}": { …, "connectTimeoutMs": ${suggestedMs} }),` +
    ` or add the server again with \`mcpvm mcp add ${diag.server} … --connect-timeout ${seconds}s --overwrite\`.`
  );
}

export function connectTimeoutError(diag: StartupDiagnostics, timeoutMs: number): McpConnectError {
  const launch = diag.launch;
  const runner = launch?.transport === "stdio" ? packageRunner(launch.command, launch.args) : undefined;
  let why: string;
  if (launch !== undefined && runner !== undefined) {
    why =
      ` The command is \`${diag.redact(commandLine(launch))}\`: ${runner} downloads the package on its first start, so a download was likely still in progress` +
      ` (or it cannot reach the registry: check your network). Run that command once yourself to watch it and fill the cache, then try again.` +
      ` Or raise the timeout: ${raiseTimeoutHint(diag, Math.max(PACKAGE_RUNNER_CONNECT_TIMEOUT_MS, timeoutMs * 2))}`;
  } else {
    why = ` If it is just slow to start, raise the timeout: ${raiseTimeoutHint(diag, Math.max(30_000, timeoutMs * 3))}`;
  }
  return new McpConnectError(
    "MCP_CONNECT_TIMEOUT",
    `MCP server ${diag.server} did not finish start-up (spawn, initialize, tools/list) within ${timeoutMs} ms; it was stopped.${why}${details(diag)}`,
    { data: { server: diag.server, timeoutMs, ...(runner === undefined ? {} : { packageRunner: runner }) } },
  );
}

/** Whether a stdio launch's env sets its PATH, which the spawn then searches instead of mcpvm's. */
function setsOwnPath(launch: McpServerLaunch | undefined): boolean {
  return launch?.transport === "stdio" && Object.keys(launch.env).some((name) => (process.platform === "win32" ? name.toUpperCase() === "PATH" : name === "PATH"));
}

/** Why a connect that did not time out failed. */
export function connectFailure(error: unknown, diag: StartupDiagnostics, command: string | undefined): McpConnectError {
  const data = { server: diag.server };
  const spawnCode = spawnErrorCode(error);
  if (spawnCode !== undefined) {
    return new McpConnectError(
      "MCP_SPAWN_FAILED",
      `Could not start MCP server ${diag.server}: command "${diag.redact(command ?? "?")}" failed to start (${spawnCode}). ${missingCommandHint(command ?? "", setsOwnPath(diag.launch))}`,
      { data: { ...data, errno: spawnCode } },
    );
  }
  if (diag.exit !== undefined) {
    return new McpConnectError("MCP_CONNECT_FAILED", `MCP server ${diag.server} exited during start-up (${describeExit(diag.exit)}).${details(diag)}`, {
      data: { ...data, exitCode: diag.exit.code, signal: diag.exit.signal },
    });
  }
  const launch = diag.launch;
  if (launch !== undefined && launch.transport !== "stdio") {
    const described = describeHttpFailure(error, launch.url, diag.server, launch.transport);
    if (described !== undefined) {
      const status = httpStatusOf(error);
      return new McpConnectError(status === 401 ? "MCP_CONNECT_UNAUTHORIZED" : "MCP_CONNECT_FAILED", `MCP server ${diag.server} could not be reached: ${diag.redact(described)}`, {
        data: { ...data, url: diag.redact(launch.url), ...(status === undefined ? {} : { httpStatus: status }) },
      });
    }
    return new McpConnectError("MCP_CONNECT_FAILED", `MCP server ${diag.server} at ${diag.redact(launch.url)} failed during start-up: ${diag.redact(describeError(error))}.`, {
      data: { ...data, url: diag.redact(launch.url) },
    });
  }
  return new McpConnectError(
    "MCP_CONNECT_FAILED",
    `MCP server ${diag.server} failed during start-up: ${diag.redact(describeError(error))}.${details(diag)}`,
    { data },
  );
}

/** The connection of a server that was working ended on its own. */
export function diedError(diag: StartupDiagnostics): McpvmError {
  const how = diag.exit !== undefined ? `exited (${describeExit(diag.exit)})` : "closed the connection";
  return new McpTransportError("MCP_TRANSPORT_CLOSED", `MCP server ${diag.server} ${how}. The next call restarts it.${details(diag)}`, {
    data: { server: diag.server, ...(diag.exit === undefined ? {} : { exitCode: diag.exit.code, signal: diag.exit.signal }) },
  });
}

/**
 * A request that the server's end cut short (it crashed or closed its stdout mid-call). The Connection
 * closed the SDK reports says neither how the server ended nor what it last wrote: this does, with the
 * server and tool the caller named (`where`), and what to run when a restart does not help.
 */
export function diedDuringCallError(diag: StartupDiagnostics, where: string, data: Record<string, unknown>): McpvmError {
  const how = diag.exit !== undefined ? `exited (${describeExit(diag.exit)})` : "closed the connection";
  // mcpvm starts a stdio server again; a remote one it can only contact again.
  const next =
    diag.launch !== undefined && diag.launch.transport !== "stdio"
      ? `It stopped or restarted at ${diag.redact(diag.launch.url)}; the next call connects again; if it fails, \`mcpvm doctor --connect\` shows why.`
      : "The next call restarts the server; if it fails again, `mcpvm doctor --connect` starts it and shows why.";
  return new McpTransportError(
    "MCP_TRANSPORT_CLOSED",
    `${where} failed: MCP server ${diag.server} ${how} before it answered. ${next}${details(diag)}`,
    { data: { ...data, ...(diag.exit === undefined ? {} : { exitCode: diag.exit.code, signal: diag.exit.signal }) } },
  );
}
