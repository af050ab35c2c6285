import { errorMessage } from "../../util/errors.js";

/**
 * Why an HTTP or SSE server could not be reached, in words. fetch says only "fetch failed" and the
 * SDK "Error POSTing to endpoint: <body>", so the status and the errno of the cause are dug out and
 * explained with the URL, which the raw messages never name.
 */
export interface HttpFailure {
  readonly status: number | undefined;
  /** The errno-like code of the network failure (ECONNREFUSED, ENOTFOUND, …). */
  readonly networkCode: string | undefined;
  readonly text: string;
}

/** The HTTP status an SDK transport error carries (SdkHttpError.status, SseError.code, or "(HTTP 404)" in the text). */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const candidate = error as { status?: unknown; code?: unknown; data?: { status?: unknown } };
  for (const value of [candidate.status, candidate.data?.status, candidate.code]) {
    if (typeof value === "number" && value >= 100 && value <= 599) return value;
  }
  const match = /\b(?:HTTP|status code)\s*\(?(\d{3})\)?/i.exec(errorMessage(error));
  return match === null ? undefined : Number(match[1]);
}

/** The errno code (or undici's message, "bad port") of a failed fetch. */
export function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code !== "") return code;
    if (current.cause === undefined && depth > 0) return current.message;
    current = current.cause;
  }
  return undefined;
}

const DROPPED = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "other side closed"]);

/** The server closed a connection it had accepted: it stopped or restarted while a request was on it. */
export function connectionDropped(error: unknown): boolean {
  const code = networkCodeOf(error);
  return code !== undefined && DROPPED.has(code);
}

function where(url: URL): string {
  return url.port === "" ? url.host : `${url.hostname} port ${url.port}`;
}

function statusText(status: number, url: string, server: string, transport: "http" | "sse"): string {
  if (status === 401) {
    return (
      `HTTP 401 from ${url}: this server needs authentication: pass a token with --header 'Authorization: Bearer …' ` +
      `(\`mcpvm mcp add ${server} --${transport} ${url} --header 'Authorization: Bearer \${TOKEN}' --overwrite\`, or "headers" in config.json), ` +
      `or, for a server that uses OAuth, leave the Authorization header out and run \`mcpvm mcp login ${server}\`.`
    );
  }
  if (status === 403) return `HTTP 403 (forbidden) from ${url}: the server refused these credentials; check the token in "headers" and what it is allowed to do.`;
  if (status === 404 || status === 405) {
    const usual = transport === "sse" ? "/sse" : "/mcp";
    return `HTTP ${status} from ${url}: there is no MCP ${transport === "sse" ? "SSE" : "streamable HTTP"} endpoint at this URL; check the path (it is usually ${usual}) and the transport (--http or --sse).`;
  }
  if (status === 406 || status === 415) return `HTTP ${status} from ${url}: the server does not speak MCP ${transport === "sse" ? "over SSE" : "streamable HTTP"} here; check the URL and the transport (--http or --sse).`;
  if (status === 429) return `HTTP 429 from ${url}: too many requests; the server is rate limiting, try again later.`;
  if (status >= 500) return `HTTP ${status} from ${url}: the server failed on its side; try again later or check its logs.`;
  return `HTTP ${status} from ${url}.`;
}

function networkText(code: string, url: URL, shown: string): string | undefined {
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused by ${where(url)} (${shown}): nothing is listening there. Is the server running, and is the port right?`;
    case "bad port":
      return `${shown} uses port ${url.port}, which fetch refuses to contact (a port browsers block for safety); run the server on another port.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host ${url.hostname} was not found (DNS lookup failed, ${code}) for ${shown}; check the URL and your network.`;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return `the connection to ${where(url)} was closed by the other side (${code}) for ${shown}; is it an MCP server, and does it speak ${url.protocol === "https:" ? "HTTPS" : "plain HTTP"}?`;
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `connecting to ${where(url)} timed out (${code}) for ${shown}; check the URL, a firewall or proxy, and your network.`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${where(url)} cannot be reached from here (${code}) for ${shown}; check your network.`;
    default:
      if (/CERT|SSL|TLS/i.test(code)) return `the TLS certificate of ${url.host} was not accepted (${code}) for ${shown}.`;
      return undefined;
  }
}

/** A sentence for a failed start of an http/sse server, or undefined when nothing better than the raw text is known. */
export function describeHttpFailure(error: unknown, rawUrl: string, server: string, transport: "http" | "sse"): string | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return undefined;
  }
  const shown = url.toString();
  const status = httpStatusOf(error);
  if (status !== undefined) return statusText(status, shown, server, transport);
  const code = networkCodeOf(error);
  return code === undefined ? undefined : networkText(code, url, shown);
}
