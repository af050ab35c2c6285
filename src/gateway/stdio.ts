import type { Readable, Writable } from "node:stream";
import type { Logger } from "pino";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { GatewayServers } from "./server-factory.js";

export interface StdioGateway {
  /** Resolves when the client closes the connection (stdin EOF) or close() is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP over stdin/stdout. stdout carries only protocol messages: the gateway's logs go to stderr
 * and the log file. The SDK pins one server instance per connection and the era its opening
 * message selects (2025 initialize, or 2026-07-28).
 */
export function startStdioGateway(servers: GatewayServers, logger: Logger, streams: { stdin?: Readable; stdout?: Writable } = {}): StdioGateway {
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const handle = serveStdio(
    servers.factory(() => "stdio", { track: true }),
    { transport, onerror: (error) => logger.debug({}, `stdio: ${error.message}`) },
  );
  // serveStdio owns the transport's callbacks; the transport's own close tells us the client left.
  const stdin = streams.stdin ?? process.stdin;
  stdin.once("end", () => resolveClosed());
  stdin.once("close", () => resolveClosed());
  return {
    closed,
    close: async () => {
      await handle.close();
      resolveClosed();
    },
  };
}
