import { errorMessage, type McpvmError } from "../../util/errors.js";
import { McpConnectError, McpTransportError } from "./errors.js";
import type { ExitInfo } from "./stdio-transport.js";

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
}

const SPAWN_ERROR_CODES = new Set(["ENOENT", "EACCES", "ENOTDIR", "EPERM"]);

function spawnErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return code !== undefined && SPAWN_ERROR_CODES.has(code) && syscall?.startsWith("spawn") === true ? code : undefined;
}

/** The message plus the cause's errno code, since fetch says only "fetch failed". */
function describeError(error: unknown): string {
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
    parts.push(` It wrote ${diag.garbageLines} line(s) on stdout that are not JSON-RPC${sample} (an MCP stdio server must log to stderr only).`);
  }
  if (diag.stderrTail.length > 0) parts.push(` Last stderr lines:\n${diag.stderrTail}`);
  return parts.join("");
}

export function connectTimeoutError(diag: StartupDiagnostics, timeoutMs: number): McpConnectError {
  return new McpConnectError(
    "MCP_CONNECT_TIMEOUT",
    `MCP server ${diag.server} did not finish start-up (spawn, initialize, tools/list) within ${timeoutMs} ms; it was stopped.` +
      ` Raise connectTimeoutMs if it is just slow.${details(diag)}`,
    { data: { server: diag.server, timeoutMs } },
  );
}

/** Why a connect that did not time out failed. */
export function connectFailure(error: unknown, diag: StartupDiagnostics, command: string | undefined): McpConnectError {
  const data = { server: diag.server };
  const spawnCode = spawnErrorCode(error);
  if (spawnCode !== undefined) {
    return new McpConnectError(
      "MCP_SPAWN_FAILED",
      `Could not start MCP server ${diag.server}: command "${diag.redact(command ?? "?")}" failed to start (${spawnCode}). Check the command and PATH.`,
      { data: { ...data, errno: spawnCode } },
    );
  }
  if (diag.exit !== undefined) {
    return new McpConnectError("MCP_CONNECT_FAILED", `MCP server ${diag.server} exited during start-up (${describeExit(diag.exit)}).${details(diag)}`, {
      data: { ...data, exitCode: diag.exit.code, signal: diag.exit.signal },
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
