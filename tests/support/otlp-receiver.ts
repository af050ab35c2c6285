import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeTraceJson, decodeTraceProtobuf, metricNamesJson, type ReceivedSpan } from "./otlp-decode.js";

/** One export request as it arrived: path, content type, headers and the raw body. */
export interface ReceivedExport {
  readonly path: string;
  readonly contentType: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port> (append /v1/traces, /v1/metrics). */
  readonly url: string;
  readonly exports: ReceivedExport[];
  /** Every span received so far, decoded by its content type. */
  spans(): ReceivedSpan[];
  /** Names of the metrics in the OTLP/JSON metric exports received so far. */
  metricNames(): string[];
  close(): Promise<void>;
}

/**
 * A collector stand-in on 127.0.0.1 that accepts OTLP/HTTP exports (protobuf or JSON) and keeps
 * them, answering as a collector does (200 with an empty ExportServiceResponse).
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const contentType = String(req.headers["content-type"] ?? "");
      exports.push({ path: new URL(req.url ?? "/", "http://x").pathname, contentType, headers: req.headers, body: Buffer.concat(chunks) });
      if (contentType.includes("json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () =>
      exports
        .filter((e) => e.path.endsWith("/v1/traces"))
        .flatMap((e) => (e.contentType.includes("json") ? decodeTraceJson(e.body.toString("utf8")) : decodeTraceProtobuf(new Uint8Array(e.body)))),
    metricNames: () => exports.filter((e) => e.path.endsWith("/v1/metrics") && e.contentType.includes("json")).flatMap((e) => metricNamesJson(e.body.toString("utf8"))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
