import { isTerminal } from "../stdin-guard.js";
import { COMMAND_SUMMARIES } from "./summaries.js";
import { resolveConfigPaths } from "../../config/paths.js";
// The gateway (HTTP server, MCP server SDK) is loaded when `serve` runs, not by every command.
import type { GatewayAuth, ListenAddress } from "../../gateway/index.js";
import { LOG_LEVELS, type LogLevelName } from "../../logging/logger.js";
import { ENGINE_CHOICES, isEngineChoice, type EngineChoice } from "../../sandbox/types.js";
import { parseCommandArgs, UsageError } from "../../terminal/args.js";
import type { Command } from "../../terminal/command.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { McpvmError } from "../../util/errors.js";
import { writeLine } from "../../terminal/io.js";
import { onSignal } from "../../util/signals.js";

const USAGE = `Usage: mcpvm serve [--http [host:]port] [--token-file <file> | --no-auth] [--toolset <name>] [--expose <server>] [--log-level <level>]

Runs the mcpvm gateway: one MCP server in front of every configured MCP server.

  (no --http)            MCP over stdin/stdout (what Claude Code, VS Code and Cursor start)
  --http [host:]port     streamable HTTP at http://host:port/mcp (host 127.0.0.1 by default),
                         GET /health for monitoring; /healthz (alive) and /readyz (upstreams
                         reachable) for orchestrators
                         Clients send "Authorization: Bearer <token>". The token is, in order:
  --token-file <file>    the first line of this file (yours, not writable by others)
  --token <secret>       (shows in \`ps\` to every account: a warning; prefer the two others)
  MCPVM_GATEWAY_TOKEN    the environment variable
                         else <config home>/gateway-token, made (0600) and printed at first use;
                         read it again with: cat <config home>/gateway-token
  --no-auth              no token, loopback only: every local account can use your servers
  --toolset <name>       start with this toolset equipped (see \`mcpvm toolset\`)
  --expose <server>      serve this server's tools, resources and prompts under their own names,
                         beside the gateway's tools (approval, pins, audit and logging in front of it)
  --log-level <level>    ${LOG_LEVELS.join("|")} (default info; or MCPVM_LOG_LEVEL). Logs go to
                         stderr (never stdout); at debug and trace also to
                         <config home>/logs/mcpvm_<time>.log
  --engine <engine>      auto|quickjs|quickjs-inline|hyperlight for run_mcp_script

Tools: list_mcp_tools, run_mcp_script, search_tools (code mode); discover-all-tools,
build-toolset, equip-toolset, unequip-toolset, list-toolsets, get-active-toolset, delete-toolset.
Resources (URIs unchanged), prompts (named server_prompt), completion and logging of the
servers pass through; elicitation and sampling requests go to the client whose call caused them.
Servers that are not approved are never started; approve them with \`mcpvm mcp approve <name>\`.
Stop with Ctrl-C (SIGINT) or SIGTERM: the gateway stops accepting, lets calls in flight finish
(config.json gateway.drainTimeoutMs, 25 s), closes sessions, then every upstream server, exit 0.
Named client tokens: \`mcpvm gateway token create <name>\`. See docs/GATEWAY.md.`;

/** A bad address or a missing token is a usage problem (exit code 2). */
function asUsage<T>(GatewayError: new (...args: never[]) => Error, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GatewayError) throw new UsageError("USAGE", `serve: ${error.message}`);
    throw error;
  }
}

function logLevel(value: string | undefined): LogLevelName | undefined {
  if (value === undefined) return undefined;
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new UsageError("USAGE", `serve: --log-level takes ${LOG_LEVELS.join(", ")} (got ${value}).`);
  return value as LogLevelName;
}

function engine(value: string | undefined): EngineChoice | undefined {
  if (value === undefined) return undefined;
  if (!isEngineChoice(value)) throw new UsageError("USAGE", `serve: --engine takes ${ENGINE_CHOICES.join(", ")} (got ${value}).`);
  return value;
}

/** A port that is taken or not ours to bind is a normal, actionable error (exit 6), not INTERNAL. */
function listenError(error: unknown, http: ListenAddress | undefined): unknown {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  // Only the listen itself: an EACCES from reading the config home (files the user cannot read, as
  // in a container whose uid does not own the mounted home) is not about the port.
  if (http === undefined || syscall !== "listen" || (code !== "EADDRINUSE" && code !== "EACCES" && code !== "EADDRNOTAVAIL")) return error;
  const where = `${http.host.includes(":") ? `[${http.host}]` : http.host}:${http.port}`;
  const problem =
    code === "EADDRINUSE" ? `port ${http.port} is in use (${where})` : code === "EACCES" ? `binding ${where} is not permitted (ports below 1024 need privileges)` : `${http.host} is not an address of this machine`;
  return new McpvmError("GATEWAY_PORT_IN_USE", `serve: ${problem}; try --http 127.0.0.1:0 (a free port, printed at start) or another port.`, { data: { host: http.host, port: http.port }, cause: error });
}

/** What a person starting the HTTP gateway must know about its token; the token itself only when just made. */
function describeAuth(auth: GatewayAuth): string[] {
  const lines = auth.warnings.map((warning) => `mcpvm: warning: ${warning}`);
  if (auth.source === "none") return lines;
  if (auth.created === true && auth.file !== undefined) {
    lines.push(`mcpvm: made a gateway token (kept in ${auth.file}, mode 600); clients send "Authorization: Bearer <token>":`, `  ${auth.token ?? ""}`);
    lines.push(`It is printed only this once; read it again with: cat ${auth.file}`);
  } else {
    const from = auth.source === "home" || auth.source === "token-file" ? (auth.file ?? "") : auth.source === "env" ? "MCPVM_GATEWAY_TOKEN" : "--token";
    lines.push(`mcpvm: clients must send "Authorization: Bearer <token>" (the token from ${from}${auth.source === "home" ? `; read it with: cat ${from}` : ""})`);
  }
  return lines;
}

/** Resolves on the first SIGINT/SIGTERM (or when `done` settles), removing its handlers. */
function untilStopped(done: Promise<void>): Promise<string> {
  return new Promise((resolve) => {
    const stop = (reason: string) => () => {
      stopInt();
      stopTerm();
      resolve(reason);
    };
    const stopInt = onSignal("SIGINT", stop("SIGINT"), { once: true });
    const stopTerm = onSignal("SIGTERM", stop("SIGTERM"), { once: true });
    void done.then(stop("client disconnected"));
  });
}

export const serveCommand: Command = {
  name: "serve",
  summary: COMMAND_SUMMARIES.serve,
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs(
      "serve",
      args,
      { http: { type: "string" }, token: { type: "string" }, "token-file": { type: "string" }, "no-auth": { type: "boolean" }, toolset: { type: "string" }, expose: { type: "string" }, "log-level": { type: "string" }, engine: { type: "string" } },
      0,
    );
    const { GatewayError, parseListenAddress, requireTokenFor, resolveGatewayAuth, startGateway } = await import("../../gateway/index.js");
    const env = context.io.env;
    const http = typeof values.http === "string" ? asUsage(GatewayError, () => parseListenAddress(values.http as string)) : undefined;
    const authFlags = (["token", "token-file", "no-auth"] as const).filter((flag) => values[flag] !== undefined);
    if (http === undefined && authFlags.length > 0) throw new UsageError("USAGE", `serve: --${authFlags[0]} applies to --http only (stdio has no network listener)`);
    const noAuth = values["no-auth"] === true;
    if (http !== undefined && noAuth) asUsage(GatewayError, () => requireTokenFor(http, undefined));
    const auth =
      http === undefined
        ? undefined
        : await resolveGatewayAuth({
            home: resolveConfigPaths(env).home,
            ...(typeof values.token === "string" ? { argvToken: values.token } : {}),
            ...(typeof values["token-file"] === "string" ? { tokenFile: values["token-file"] } : {}),
            ...(env.MCPVM_GATEWAY_TOKEN ? { envToken: env.MCPVM_GATEWAY_TOKEN } : {}),
            noAuth,
          }).catch((error: unknown) => {
            if (error instanceof GatewayError) throw new UsageError("USAGE", `serve: ${error.message}`);
            throw error;
          });
    const token = auth?.token;
    const level = logLevel(typeof values["log-level"] === "string" ? values["log-level"] : context.logLevel ?? (env.MCPVM_LOG_LEVEL || undefined));
    const chosenEngine = engine(typeof values.engine === "string" ? values.engine : context.engine);
    const running = await startGateway({
      env,
      ...(http === undefined ? {} : { http }),
      ...(token === undefined ? {} : { token }),
      ...(noAuth ? { noAuth } : {}),
      ...(typeof values.toolset === "string" ? { toolset: values.toolset } : {}),
      ...(typeof values.expose === "string" ? { expose: values.expose } : {}),
      ...(level === undefined ? {} : { logLevel: level }),
      ...(chosenEngine === undefined ? {} : { engine: chosenEngine }),
      ...(http === undefined ? { stdin: context.io.stdin, stdout: context.io.stdout } : {}),
    }).catch((error: unknown) => {
      throw listenError(error, http);
    });
    if (running.url !== undefined) writeLine(context.io.stderr, `mcpvm gateway listening on ${running.url}${running.logFile === undefined ? "" : ` (log: ${running.logFile})`}`);
    if (auth !== undefined) for (const line of describeAuth(auth)) writeLine(context.io.stderr, line);
    // Typed at a prompt (README's first `serve` line), stdio mode sat silent after its start-up log, like a hang.
    if (http === undefined && isTerminal(context.io.stdin)) {
      writeLine(context.io.stderr, "mcpvm serve speaks MCP on stdin and stdout: an MCP client starts it (docs/GATEWAY.md), or use --http 127.0.0.1:8808. Waiting for a client here; Ctrl-C stops it.");
    }
    await untilStopped(running.done);
    await running.close();
    return ExitCode.Ok;
  },
};
