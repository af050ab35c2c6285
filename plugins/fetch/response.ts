import { parseJsonSafe } from "../../src/util/json.js";
import { FetchError, showUrl } from "./errors.js";
import type { RawResponse } from "./client.js";

export type ResponseType = "text" | "json" | "binary";

export interface FetchResponse {
  readonly status: number;
  readonly statusText: string;
  /** status is 200-299. */
  readonly ok: boolean;
  /** The final URL after redirects. */
  readonly url: string;
  readonly redirected: boolean;
  /** Lowercase names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

function flatHeaders(raw: RawResponse["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Decode text by the charset the server declares, falling back to UTF-8 for unknown labels. */
function decodeText(body: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch (_unknownLabel) {
    return new TextDecoder("utf-8").decode(body);
  }
}

function decodeBody(raw: RawResponse, type: ResponseType): unknown {
  if (type === "binary") return new Uint8Array(raw.body);
  const text = decodeText(raw.body, raw.headers["content-type"]);
  if (type === "text") return text;
  try {
    return parseJsonSafe(text);
  } catch (_notJson) {
    const excerpt = text.slice(0, 120).replace(/\s+/g, " ");
    throw new FetchError(
      "FETCH_INVALID_JSON",
      `the response from ${showUrl(raw.url)} (status ${raw.status}, ${raw.headers["content-type"] ?? "no content-type"}) is not JSON: "${excerpt}"; use responseType "text" to read it`,
      { data: { url: showUrl(raw.url), status: raw.status } },
    );
  }
}

/** The guest-facing response. `bodyType` undefined (HEAD) leaves the body out. */
export function toGuestResponse(raw: RawResponse, bodyType: ResponseType | undefined): FetchResponse {
  const head = {
    status: raw.status,
    statusText: raw.statusText,
    ok: raw.status >= 200 && raw.status < 300,
    url: raw.url.href,
    redirected: raw.redirected,
    headers: flatHeaders(raw.headers),
  };
  return bodyType === undefined ? head : { ...head, body: decodeBody(raw, bodyType) };
}
