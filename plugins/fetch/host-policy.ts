import { isIP } from "node:net";
import { FetchError, showUrl } from "./errors.js";

/** One allowlist entry: an exact host, or `*.example.com` (any subdomain, not the apex itself). */
export type HostPattern = { readonly exact: string } | { readonly suffix: string };

/** The host of a URL as compared and resolved: lowercase, punycode, no IPv6 brackets or final dot. */
export function hostOf(url: URL): string {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

function canonicalHost(text: string): string | undefined {
  if (text === "" || /[\s/@?#*]/.test(text)) return undefined;
  const bracketed = isIP(text) === 6 ? `[${text}]` : text;
  try {
    const url = new URL(`http://${bracketed}/`);
    return url.port === "" ? hostOf(url) : undefined;
  } catch {
    return undefined;
  }
}

/** Parse an allowDomains entry; undefined when it is not a host name, IP literal or `*.` pattern. */
export function parseHostPattern(entry: string): HostPattern | undefined {
  const text = entry.trim().toLowerCase();
  if (text.startsWith("*.")) {
    const base = canonicalHost(text.slice(2));
    return base === undefined || isIP(base) !== 0 ? undefined : { suffix: `.${base}` };
  }
  const exact = canonicalHost(text);
  return exact === undefined ? undefined : { exact };
}

export function hostAllowed(patterns: readonly HostPattern[], host: string): boolean {
  return patterns.some((p) => ("exact" in p ? p.exact === host : host.endsWith(p.suffix)));
}

/**
 * Parse and check a URL a guest (or a redirect) asks for: http/https only, no credentials, host on
 * the allowlist. Address checks happen later, after DNS resolution.
 */
export function checkUrl(raw: string, patterns: readonly HostPattern[], base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw base === undefined
      ? new FetchError("FETCH_INVALID_URL", `'${raw}' is not a valid absolute URL (e.g. 'https://api.example.com/items')`)
      : new FetchError("FETCH_BAD_REDIRECT", `${showUrl(base)} redirected to '${raw}', which is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchError("FETCH_PROTOCOL_NOT_ALLOWED", `only http: and https: URLs can be fetched, not ${url.protocol}`, {
      data: { url: url.protocol },
    });
  }
  if (url.username !== "" || url.password !== "") {
    throw new FetchError("FETCH_INVALID_URL", "credentials in URLs are not supported; send them in a header (e.g. Authorization)");
  }
  const host = hostOf(url);
  if (!hostAllowed(patterns, host)) {
    throw new FetchError("FETCH_DOMAIN_NOT_ALLOWED", `host '${host}' is not in the fetch plugin's allowDomains; ask the user to add it to the plugin's configuration`, {
      data: { url: showUrl(url), host },
    });
  }
  return url;
}
