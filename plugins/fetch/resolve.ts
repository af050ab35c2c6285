import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { addressKey, classifyAddress } from "./address-policy.js";
import { FetchError, showUrl } from "./errors.js";
import { hostOf } from "./host-policy.js";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Host name -> addresses. Injected so tests can point a name at a chosen address. */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** Reject when `signal` aborts (with its reason) without leaving a listener behind. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Decides which resolved addresses may be contacted: public ones, plus the exact addresses the
 * configuration explicitly (and dangerously) exempts.
 */
export class AddressGuard {
  private readonly exempt: ReadonlySet<string>;

  constructor(allowPrivateAddresses: readonly string[]) {
    this.exempt = new Set(allowPrivateAddresses.map((a) => addressKey(a)).filter((k): k is string => k !== undefined));
  }

  check(url: URL, address: string): void {
    const kind = classifyAddress(address);
    if (kind === "public" || this.exempt.has(addressKey(address) ?? "")) return;
    throw new FetchError(
      "FETCH_PRIVATE_ADDRESS",
      `refused to contact '${hostOf(url)}': it resolves to ${address}, a ${kind} address; the fetch plugin only connects to public internet addresses`,
      { data: { url: showUrl(url), address, kind } },
    );
  }

  /**
   * Resolve the URL's host and check every address (a name that mixes public and private answers
   * is refused outright). The returned address is the one the connection must use.
   */
  async pin(url: URL, resolver: Resolver, signal: AbortSignal): Promise<ResolvedAddress> {
    const host = hostOf(url);
    const family = isIP(host);
    if (family !== 0) {
      this.check(url, host);
      return { address: host, family: family === 6 ? 6 : 4 };
    }
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await abortable(resolver(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "unknown error";
      throw new FetchError("FETCH_DNS_FAILED", `could not resolve host '${host}' (${code})`, { data: { url: showUrl(url), host } });
    }
    const first = addresses[0];
    if (first === undefined) {
      throw new FetchError("FETCH_DNS_FAILED", `host '${host}' has no addresses`, { data: { url: showUrl(url), host } });
    }
    for (const { address } of addresses) this.check(url, address);
    return first;
  }
}
