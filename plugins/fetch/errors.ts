import { McpvmError } from "../../src/util/errors.js";

export type FetchErrorCode =
  | "FETCH_INVALID_ARGUMENT"
  | "FETCH_INVALID_URL"
  | "FETCH_PROTOCOL_NOT_ALLOWED"
  | "FETCH_DOMAIN_NOT_ALLOWED"
  | "FETCH_PRIVATE_ADDRESS"
  | "FETCH_DNS_FAILED"
  | "FETCH_NETWORK_ERROR"
  | "FETCH_TOO_LARGE"
  | "FETCH_TIMEOUT"
  | "FETCH_ABORTED"
  | "FETCH_TOO_MANY_REDIRECTS"
  | "FETCH_BAD_REDIRECT"
  | "FETCH_INVALID_JSON";

/** Errors of the fetch plugin; `data.url` shows origin and path only (queries may hold keys). */
export class FetchError extends McpvmError<FetchErrorCode> {}

/** For parseArgs: guest arguments that fail validation. */
export function invalidFetchArgument(message: string): FetchError {
  return new FetchError("FETCH_INVALID_ARGUMENT", message);
}

/** How a URL appears in messages: without credentials, query or fragment. */
export function showUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
