import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { addressKey } from "./address-policy.js";
import { FetchError, showUrl } from "./errors.js";
import type { ResolvedAddress } from "./resolve.js";

export interface HopRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  /** The checked address; the connection goes here whatever DNS says by now (no rebinding). */
  readonly pinned: ResolvedAddress;
}

export interface HopLimits {
  readonly maxBytes: number;
  /** Aborting rejects with the signal's reason. */
  readonly signal: AbortSignal;
  /** false: settle as soon as the head arrives (redirects being followed, HEAD). */
  readonly wantBody: (status: number, headers: IncomingHttpHeaders) => boolean;
}

export interface HopResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

function networkError(error: unknown, url: URL): FetchError {
  if (error instanceof FetchError) return error;
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "connection failed";
  return new FetchError("FETCH_NETWORK_ERROR", `request to ${showUrl(url)} failed (${code})`, { data: { url: showUrl(url), errno: code } });
}

function tooLarge(url: URL, max: number): FetchError {
  return new FetchError("FETCH_TOO_LARGE", `the response from ${showUrl(url)} is larger than maxResponseBytes (${max} bytes)`, {
    data: { url: showUrl(url) },
  });
}

/** One HTTP exchange on a fresh connection (no pooling, so no socket outlives its check). */
export function sendHop(request: HopRequest, limits: HopLimits): Promise<HopResponse> {
  const { url, pinned } = request;
  return new Promise<HopResponse>((resolve, reject) => {
    let req: http.ClientRequest | undefined;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      limits.signal.removeEventListener("abort", onAbort);
      req?.destroy();
      outcome();
    };
    const fail = (error: unknown) => finish(() => reject(limits.signal.aborted ? (limits.signal.reason as Error) : networkError(error, url)));
    const onAbort = () => fail(limits.signal.reason);
    if (limits.signal.aborted) return fail(limits.signal.reason);
    limits.signal.addEventListener("abort", onAbort, { once: true });

    const headers = request.body === undefined ? request.headers : { ...request.headers, "content-length": String(request.body.length) };
    try {
      const transport = url.protocol === "https:" ? https : http;
      req = transport.request(url, { method: request.method, headers, agent: false, lookup: pinnedLookup(pinned) });
    } catch (error) {
      return fail(error);
    }
    req.on("error", fail);
    req.on("response", (res) => {
      res.on("error", fail);
      if (addressKey(res.socket.remoteAddress ?? "") !== addressKey(pinned.address)) {
        return fail(new FetchError("FETCH_NETWORK_ERROR", `the connection to ${showUrl(url)} reached an address other than the one checked; refused`));
      }
      const status = res.statusCode ?? 0;
      const head = { status, statusText: res.statusMessage ?? "", headers: res.headers };
      if (!limits.wantBody(status, res.headers)) return finish(() => resolve({ ...head, body: Buffer.alloc(0) }));
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > limits.maxBytes) return fail(tooLarge(url, limits.maxBytes));
      const parts: Buffer[] = [];
      let total = 0;
      res.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total > limits.maxBytes) fail(tooLarge(url, limits.maxBytes));
        else parts.push(chunk);
      });
      res.on("end", () => finish(() => resolve({ ...head, body: Buffer.concat(parts, total) })));
      res.on("close", () => {
        if (!res.complete) fail(new FetchError("FETCH_NETWORK_ERROR", `the connection to ${showUrl(url)} closed before the response was complete`));
      });
    });
    req.end(request.body);
  });
}
