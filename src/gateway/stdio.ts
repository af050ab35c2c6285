import type { Readable, Writable } from "node:stream";
import type { Logger } from "pino";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { StdioFastLane } from "./fast-lane/stdio-lane.js";
import type { Gateway } from "./gateway.js";
import type { Passthrough } from "./passthrough/passthrough.js";
import type { GatewayServers } from "./server-factory.js";
import { GatewayStdioTransport, StdinOverflowError } from "./stdio-transport.js";

export interface StdioGateway {
  /** Resolves when the client closes the connection (stdin EOF) or close() is called. */
  readonly closed: Promise<void>;
  /** Calls the fast lane answered (undefined when it is off). */
  fastLaneCalls(): number | undefined;
  close(): Promise<void>;
}

export interface StdioGatewayOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Plain direct-tool calls answered without the SDK server (fast-lane/stdio-lane.ts); needs gateway. */
  readonly fastLane?: { readonly gateway: Gateway; readonly passthrough: Passthrough };
}

/**
 * MCP over stdin/stdout. stdout carries only protocol messages: the gateway's logs go to stderr
 * and the log file. The SDK pins one server instance per connection and the era its opening
 * message selects (2025 initialize, or 2026-07-28).
 */
export function startStdioGateway(servers: GatewayServers, logger: Logger, options: StdioGatewayOptions = {}): StdioGateway {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  let lane: StdioFastLane | undefined;
  const transport = new GatewayStdioTransport(stdin, stdout, (message) => lane?.intercept(message) ?? false);
  if (options.fastLane !== undefined) lane = new StdioFastLane(options.fastLane.gateway, logger, options.fastLane.passthrough, (message) => transport.send(message));
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const factory = servers.factory(() => "stdio", { track: true });
  // serveStdio owns the transport's callbacks; stdin's own end tells us the client left.
  const ended = (): void => {
    lane?.close();
    resolveClosed();
  };
  const handle = serveStdio(lane === undefined ? factory : lane.watch(factory), {
    transport,
    onerror: (error) => {
      if (!(error instanceof StdinOverflowError)) return logger.debug({}, `stdio: ${error.message}`);
      // stdin is no longer read: the gateway says why and stops, or a client writing on would block for good.
      logger.error({}, `stdio: ${error.message}`);
      ended();
    },
  });
  stdin.once("end", ended);
  stdin.once("close", ended);
  return {
    closed,
    fastLaneCalls: () => lane?.served,
    close: async () => {
      lane?.close();
      await handle.close();
      resolveClosed();
    },
  };
}
