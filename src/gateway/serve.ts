import type { Readable, Writable } from "node:stream";
import { resolveConfigPaths } from "../config/paths.js";
import { McpvmHost } from "../host/index.js";
import { createLogger, type LogLevelName } from "../logging/logger.js";
import { Redactor } from "../logging/redact.js";
import type { EngineChoice } from "../sandbox/types.js";
import { startTelemetry } from "../telemetry/start.js";
import { NOOP_TELEMETRY } from "../telemetry/telemetry.js";
import { errorMessage } from "../util/errors.js";
import { isLoopback, requireTokenFor, type ListenAddress } from "./address.js";
import { Gateway } from "./gateway.js";
import { ensureHomeToken } from "./gateway-token.js";
import { tokenAuthenticator, type RequestAuthenticator, type TokenAuthOptions } from "./clients/authenticate.js";
import { OAuthResourceServer } from "./oauth/resource-server.js";
import type { Logger } from "pino";
import { ClientTokenStore } from "./clients/store.js";
import { startHttpGateway } from "./http-server.js";
import { fastLaneEnabled } from "./fast-lane/enabled.js";
import { resolveSessionKey } from "./session-key.js";
import { GatewayServers } from "./server-factory.js";
import { parseGatewaySettings, type GatewaySettings } from "./settings.js";
import { startStdioGateway } from "./stdio.js";
import { checkGatewayStateFiles } from "./start-checks.js";
import { ToolsetStore } from "./toolsets/store.js";
import { Passthrough } from "./passthrough/passthrough.js";
import { serviceUpstreams } from "./passthrough/upstreams.js";
import { GatewayError } from "./errors.js";
import type { McpService } from "../mcp/service/index.js";
import { didYouMean } from "../util/suggest.js";
import { ConfigFollower, readGatewayConfig } from "./config-follow.js";

export interface ServeOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Streamable HTTP on this address; stdio when absent. */
  readonly http?: ListenAddress;
  /** The bearer token HTTP clients must send; when absent (and not noAuth) the home's gateway-token, made if missing. */
  readonly token?: string;
  /** HTTP without a token: loopback only, on explicit request (--no-auth). */
  readonly noAuth?: boolean;
  /** Equip this toolset at start. */
  readonly toolset?: string;
  /** Serve this server's tools, resources and prompts under their own names (`--expose <server>`). */
  readonly expose?: string;
  readonly logLevel?: LogLevelName;
  /** "always": write the log file at any level (by default only at debug and trace, as docs/GATEWAY.md says). */
  readonly logFile?: "always";
  /** Overrides config.json `engine`. */
  readonly engine?: EngineChoice;
  /** Pretty console logs (default: stderr is a TTY). */
  readonly pretty?: boolean;
  /** For stdio mode; default the process's own. */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

export interface RunningGateway {
  readonly gateway: Gateway;
  readonly host: McpvmHost;
  /** Resources, prompts, logging and the 2026 clients' input rounds (see passthrough/). */
  readonly passthrough: Passthrough;
  /** The /mcp URL in HTTP mode. */
  readonly url: string | undefined;
  readonly logFile: string | undefined;
  /** The token HTTP clients must send (undefined in stdio mode and with noAuth). */
  readonly token: string | undefined;
  /** Calls the stdio face's fast lane answered (undefined in HTTP mode, where /health reports it, or with the lane off). */
  readonly stdioFastLaneCalls: () => number | undefined;
  /** Resolves when a stdio client disconnects (never, by itself, in HTTP mode). */
  readonly done: Promise<void>;
  /** Graceful shutdown: transports, client sessions, then every upstream server. */
  close(): Promise<void>;
}

/**
 * The logger exists before the host (the host takes it), but the secrets to mask are learnt by the
 * host's redactor; this one defers to it once it exists.
 */
class DeferredRedactor extends Redactor {
  target: Redactor | undefined;

  override redact(text: string): string {
    return this.target === undefined ? super.redact(text) : this.target.redact(text);
  }
}

export async function startGateway(options: ServeOptions): Promise<RunningGateway> {
  let token = options.token;
  if (options.http !== undefined) {
    if (options.noAuth === true) requireTokenFor(options.http, undefined);
    else token ??= (await ensureHomeToken(resolveConfigPaths(options.env).home)).token;
  }
  const redactor = new DeferredRedactor();
  const { logger, file: logFile } = createLogger({
    level: options.logLevel ?? "info",
    redactor,
    logsDir: resolveConfigPaths(options.env).logsDir,
    ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
    console: "stderr",
    ...(options.pretty === undefined ? {} : { pretty: options.pretty }),
  });
  if (token !== undefined) redactor.add([token]);
  const host = await McpvmHost.open({ env: options.env, logger, face: "gateway", ...(options.engine === undefined ? {} : { engine: options.engine }) });
  redactor.target = host.redactor;
  if (token !== undefined) host.redactor.add([token]);
  let traces = NOOP_TELEMETRY;
  try {
    // OTEL_* variables: nothing is loaded unless they ask for an export (src/telemetry).
    traces = await startTelemetry(options.env, { addSecrets: (secrets) => host.redactor.add(secrets), warn: (message) => logger.warn({}, message) });
    const settings = parseGatewaySettings(host.config.gateway, host.paths.configFile);
    const service = await host.requireMcp();
    traces.observeUpstreams(() => service.clients.serverNames().map((name) => ({ server: name, state: service.clients.status(name).state })));
    if (options.expose !== undefined) requireExposable(service, options.expose);
    const toolsets = new ToolsetStore(host.paths.toolsetsFile);
    await checkGatewayStateFiles(service, toolsets);
    const gateway = new Gateway({ host, service, logger, toolsets, settings, ...(options.expose === undefined ? {} : { expose: options.expose }) });
    const holder: { servers?: GatewayServers } = {};
    const passthrough = new Passthrough({
      upstreams: serviceUpstreams(service, host.redactor, options.expose),
      clients: service.clients,
      logger,
      redact: (text) => host.redactor.redact(text),
      exposed: options.expose,
      liveServers: () => holder.servers?.liveServers() ?? [],
    });
    const servers = new GatewayServers(gateway, logger, passthrough);
    holder.servers = servers;
    service.clients.setProtocol(settings.upstreamProtocol);
    passthrough.start();
    gateway.onToolsChanged(() => servers.notifyToolsChanged());
    gateway.start();
    const follower = followConfig({ host, gateway, passthrough, logger, drainMs: settings.drainTimeoutMs });
    await gateway.directory.blocked();
    if (options.toolset !== undefined) await gateway.equip(options.toolset);

    let url: string | undefined;
    let done: Promise<void>;
    let closeTransport: () => Promise<void>;
    let fastLaneCalls: () => number | undefined = () => undefined;
    if (options.http !== undefined) {
      const sessionKey = await resolveSessionKey(host.paths.home, options.env);
      if (sessionKey.warning !== undefined) logger.warn({}, sessionKey.warning);
      const http = await startHttpGateway({
        sessionKey: sessionKey.key,
        gateway,
        servers,
        passthrough,
        address: options.http,
        token,
        authenticator: await gatewayAuthenticator({ token, clients: new ClientTokenStore(host.paths.gatewayClientsFile) }, settings, options.http, host.paths.configFile, logger),
        logger,
        sessionLimits: { perClient: settings.maxSessionsPerClient, total: settings.maxSessions, idleMs: settings.sessionIdleMs },
        fastLane: fastLaneEnabled(settings.fastLane, options.env),
      });
      url = http.url;
      done = new Promise<void>(() => undefined);
      closeTransport = () => http.close({ drainMs: settings.drainTimeoutMs });
    } else {
      const stdio = startStdioGateway(servers, logger, {
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
        ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
        ...(fastLaneEnabled(settings.fastLane, options.env) ? { fastLane: { gateway, passthrough } } : {}),
      });
      fastLaneCalls = stdio.fastLaneCalls;
      done = stdio.closed;
      closeTransport = () => stdio.close();
    }
    logger.info({ transport: url === undefined ? "stdio" : "http", url, logFile, servers: service.enabledServers() }, "mcpvm gateway started");

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      // Child processes and sockets being closed are unref'd; without a handle of its own the
      // process could exit mid-shutdown and leave upstream servers (own process groups) running.
      const keepAlive = setInterval(() => undefined, 1_000);
      closing ??= (async () => {
        logger.info({}, "mcpvm gateway shutting down");
        await closeTransport().catch(() => undefined);
        await follower.stop();
        await servers.closeAll();
        passthrough.stop();
        await gateway.close();
        await host.close();
        await traces.shutdown().catch((error: unknown) => logger.warn({}, `telemetry did not flush: ${errorMessage(error)}`));
        logger.info({}, "mcpvm gateway stopped");
        logger.flush();
      })().finally(() => clearInterval(keepAlive));
      return closing;
    };
    return { gateway, host, passthrough, url, logFile, token: options.http === undefined ? undefined : token, stdioFastLaneCalls: () => fastLaneCalls(), done, close };
  } catch (error) {
    await host.close().catch(() => undefined);
    await traces.shutdown().catch(() => undefined);
    throw error;
  }
}

/**
 * config.json followed while the gateway runs (./config-follow.ts): an edit of `mcpServers` is applied
 * to the host's MCP side, toolsets are re-resolved and every client is told its lists changed.
 */
function followConfig(parts: { host: McpvmHost; gateway: Gateway; passthrough: Passthrough; logger: Logger; drainMs: number }): ConfigFollower {
  const { host, gateway, passthrough, logger } = parts;
  const file = host.paths.configFile;
  const follower = new ConfigFollower({
    file,
    logger,
    running: host.config,
    servers: host.mcpServers()?.all ?? {},
    redact: (text) => host.redactor.redact(text),
    read: () => readGatewayConfig(file),
    apply: async (next, diff) => {
      const { closed } = await host.reconfigureMcp(next.config, next.servers, diff, parts.drainMs);
      const leaving = [...diff.removed, ...diff.changed];
      if (leaving.length > 0) void closed.then(() => logger.info({ servers: leaving }, `MCP servers closed after their calls in flight finished: ${leaving.join(", ")}`));
      passthrough.listChanged("resources");
      passthrough.listChanged("prompts");
      // Toolsets are re-resolved behind (that can start servers): requests see the new servers at once.
      void gateway.serversChanged().catch((error: unknown) => logger.warn({}, `after the config.json edit, toolsets could not be re-resolved: ${host.redactor.redact(errorMessage(error))}`));
    },
  });
  gateway.followConfig(() => follower.check());
  follower.start();
  return follower;
}

/** --expose names a configured, enabled server (checked before anything starts). */
function requireExposable(service: McpService, name: string): void {
  const enabled = service.enabledServers();
  if (enabled.includes(name)) return;
  const why = service.serverNames().includes(name) ? "is disabled" : "is not configured";
  throw new GatewayError("GATEWAY_EXPOSE_UNKNOWN", `Cannot expose MCP server "${name}": it ${why}${didYouMean(name, enabled)} (enabled: ${enabled.join(", ") || "none"}).`, {
    data: { server: name },
  });
}

/**
 * The gateway token and named client tokens, and with `gateway.oauth` access tokens from the
 * identity provider too. Its keys are looked up now, so a wrong issuer shows in the log at start;
 * an identity provider that is down only delays that (tokens are refused with 503 until it answers).
 */
async function gatewayAuthenticator(tokens: TokenAuthOptions, settings: GatewaySettings, address: ListenAddress, configFile: string, logger: Logger): Promise<RequestAuthenticator> {
  const byToken = tokenAuthenticator(tokens);
  const oauth = settings.oauth;
  if (oauth === undefined) return byToken;
  if (oauth.resource === undefined && !isLoopback(address.host)) {
    throw new GatewayError(
      "GATEWAY_CONFIG_INVALID",
      `${configFile} (gateway.oauth): set "resource" to the URL clients reach this gateway at (e.g. https://mcp.example.com/mcp); it is the audience access tokens must carry, and ${address.host} is not it`,
      { data: { file: configFile } },
    );
  }
  const server = new OAuthResourceServer({ settings: oauth, tokens: byToken });
  await server.keys.warm().then(
    (keys) => logger.info({ issuer: oauth.issuer, jwks: keys.jwksUri, kids: keys.kids }, "OAuth access tokens accepted from the identity provider"),
    (error: unknown) => logger.warn({ issuer: oauth.issuer }, `the identity provider's keys cannot be read yet (access tokens are refused with 503 until they can): ${errorMessage(error)}`),
  );
  return server;
}
