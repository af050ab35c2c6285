import { timingSafeEqual } from "node:crypto";

/**
 * Who may talk to the dashboard. It listens on 127.0.0.1 only, but any web page the person opens
 * can make their browser send requests there, and a DNS-rebinding page can even read the answers
 * under its own host name. So every request must name this server as its Host (127.0.0.1:port or
 * localhost:port), a cross-site Origin is refused, the API needs the random token in a header (a
 * foreign page never learns it: it is only in the URL the CLI printed), and state-changing calls
 * are POST with a JSON body, which a foreign page cannot send without a CORS preflight we never
 * answer. Pure: tested without a socket.
 */
export const TOKEN_HEADER = "x-mcpvm-token";

export interface GuardInput {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
  readonly contentType: string | undefined;
  /** The token header (API calls). */
  readonly headerToken: string | undefined;
  /** `?token=` of the page URL (the page itself). */
  readonly queryToken: string | null;
}

export interface GuardSettings {
  readonly port: number;
  readonly token: string;
}

export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly code: UiRefusalCode; readonly message: string };

export type UiRefusalCode = "UI_BAD_HOST" | "UI_FOREIGN_ORIGIN" | "UI_BAD_TOKEN" | "UI_METHOD_NOT_ALLOWED" | "UI_NOT_JSON";

/** Constant-time comparison, so the token cannot be guessed a character at a time. */
export function sameToken(given: string | undefined | null, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

function refuse(status: number, code: UiRefusalCode, message: string): GuardVerdict {
  return { ok: false, status, code, message };
}

export function guardRequest(input: GuardInput, settings: GuardSettings): GuardVerdict {
  if (input.host === undefined || !allowedHosts(settings.port).includes(input.host.toLowerCase())) {
    return refuse(421, "UI_BAD_HOST", `This dashboard answers only as http://127.0.0.1:${settings.port} (got Host "${input.host ?? ""}").`);
  }
  if (input.origin !== undefined && input.origin !== "null" && !allowedOrigins(settings.port).includes(input.origin.toLowerCase())) {
    return refuse(403, "UI_FOREIGN_ORIGIN", `Requests from ${input.origin} are refused: only the dashboard's own page may call it.`);
  }
  if (input.origin === "null" || input.secFetchSite === "cross-site" || input.secFetchSite === "same-site") {
    return refuse(403, "UI_FOREIGN_ORIGIN", "Cross-site requests are refused: only the dashboard's own page may call it.");
  }
  const isApi = input.path.startsWith("/api/");
  if (!isApi) {
    // Static assets hold no state; the page itself is served only with the token, so a wrong link says so.
    if (input.path === "/" && !sameToken(input.queryToken, settings.token)) {
      return refuse(403, "UI_BAD_TOKEN", "Wrong or missing token. Open the URL `mcpvm ui` printed (it ends in ?token=…).");
    }
    if (input.method !== "GET" && input.method !== "HEAD") return refuse(405, "UI_METHOD_NOT_ALLOWED", `${input.method} is not allowed here.`);
    return { ok: true };
  }
  if (!sameToken(input.headerToken, settings.token)) {
    return refuse(403, "UI_BAD_TOKEN", "Wrong or missing token. Reload the page from the URL `mcpvm ui` printed.");
  }
  if (input.method === "POST") {
    if (!isJsonMediaType(input.contentType)) return refuse(415, "UI_NOT_JSON", "State-changing calls take a JSON body (Content-Type: application/json).");
    return { ok: true };
  }
  if (input.method !== "GET") return refuse(405, "UI_METHOD_NOT_ALLOWED", `${input.method} is not allowed: reads are GET, changes are POST.`);
  return { ok: true };
}

/**
 * The media type of a Content-Type header (RFC 9110 §8.3: type "/" subtype, then ";" parameters), compared
 * whole and case-free: a prefix test would take "application/jsonfoo" as JSON.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return mediaType === "application/json";
}
