import { parseArgs } from "../../src/plugins/args.js";
import type { HostCallContext, HostFunction } from "../../src/sandbox/types.js";
import { getArgs, headArgs, postArgs, type RequestOptions } from "./args.js";
import { runFetch, type FetchCall, type FetchPolicy } from "./client.js";
import type { FetchConfig } from "./config.js";
import { invalidFetchArgument } from "./errors.js";
import { parseHostPattern, type HostPattern } from "./host-policy.js";
import { AddressGuard, systemResolver, type Resolver } from "./resolve.js";
import { toGuestResponse } from "./response.js";

export interface FetchModuleOptions {
  /** Defaults to the system resolver (getaddrinfo). */
  readonly resolver?: Resolver;
  readonly now?: () => number;
}

const USER_AGENT = "mcpvm-fetch/1.0";

function requestHeaders(given: Readonly<Record<string, string>> | undefined, contentType?: string): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": USER_AGENT, "accept-encoding": "identity" };
  if (contentType !== undefined) headers["content-type"] = contentType;
  for (const [name, value] of Object.entries(given ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/** A POST body: strings as UTF-8 text, Uint8Array as bytes, any other value as JSON. */
function encodeBody(body: unknown): { readonly bytes?: Buffer; readonly contentType?: string } {
  if (body === undefined) return {};
  if (typeof body === "string") return { bytes: Buffer.from(body, "utf8"), contentType: "text/plain; charset=utf-8" };
  if (body instanceof Uint8Array) return { bytes: Buffer.from(body), contentType: "application/octet-stream" };
  return { bytes: Buffer.from(JSON.stringify(body), "utf8"), contentType: "application/json" };
}

function call(method: FetchCall["method"], url: string, options: Omit<RequestOptions, "responseType"> | undefined, body?: unknown): FetchCall {
  const encoded = encodeBody(body);
  return {
    method,
    url,
    headers: requestHeaders(options?.headers, encoded.contentType),
    ...(encoded.bytes === undefined ? {} : { body: encoded.bytes }),
    followRedirects: options?.followRedirects ?? true,
    ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
}

/** The `fetch` host module's functions under one configuration. */
export function createFetchModule(config: FetchConfig, options: FetchModuleOptions = {}): Record<string, HostFunction> {
  const patterns = config.allowDomains.map(parseHostPattern).filter((p): p is HostPattern => p !== undefined);
  const policy: FetchPolicy = {
    patterns,
    guard: new AddressGuard(config.allowPrivateAddresses),
    resolver: options.resolver ?? systemResolver,
    maxResponseBytes: config.maxResponseBytes,
    timeoutMs: config.timeoutMs,
    maxRedirects: config.maxRedirects,
    credentialHeaders: new Set(config.credentialHeaders.map((name) => name.toLowerCase())),
    now: options.now ?? Date.now,
  };
  return {
    get: async (args, context: HostCallContext) => {
      const [url, opts] = parseArgs(getArgs, args, invalidFetchArgument);
      return toGuestResponse(await runFetch(policy, call("GET", url, opts), context), opts?.responseType ?? "text");
    },
    head: async (args, context: HostCallContext) => {
      const [url, opts] = parseArgs(headArgs, args, invalidFetchArgument);
      return toGuestResponse(await runFetch(policy, call("HEAD", url, opts), context), undefined);
    },
    post: async (args, context: HostCallContext) => {
      const [url, body, opts] = parseArgs(postArgs, args, invalidFetchArgument);
      return toGuestResponse(await runFetch(policy, call("POST", url, opts, body), context), opts?.responseType ?? "text");
    },
  };
}
