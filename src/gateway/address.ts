import { isIP } from "node:net";
import { GatewayError } from "./errors.js";

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export const DEFAULT_HTTP_HOST = "127.0.0.1";

/** `8080`, `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`, `0.0.0.0:8080`; port 0 picks a free one. */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || !Number.isInteger(port) || port > 65_535) {
    throw new GatewayError("GATEWAY_BAD_ADDRESS", `--http takes [host:]port, e.g. 8080 or 127.0.0.1:8080 (got "${text}").`, { data: { address: text } });
  }
  const rawHost = match[1] ?? DEFAULT_HTTP_HOST;
  const host = rawHost.startsWith("[") ? rawHost.slice(1, -1) : rawHost;
  return { host, port };
}

/** Whether only this machine can reach the address. */
export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1";
  return false;
}

/** A token is required off loopback: anyone on the network could otherwise run scripts with your servers. */
export function requireTokenFor(address: ListenAddress, token: string | undefined): void {
  if (isLoopback(address.host) || (token !== undefined && token.length > 0)) return;
  throw new GatewayError(
    "GATEWAY_TOKEN_REQUIRED",
    `Binding ${address.host} exposes the gateway beyond this machine; set a bearer token with --token <secret> or MCPVM_GATEWAY_TOKEN.`,
    { data: { host: address.host } },
  );
}
