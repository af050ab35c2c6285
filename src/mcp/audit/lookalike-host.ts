/**
 * A host name that reads as a well-known service's once decoded and folded: `xn--gthub-zsa.com` (punycode for
 * `gíthub.com`), `gіthub.com` with a Cyrillic і, `paypaI.com` with a capital I. A person reading a link, and a model
 * choosing a destination, see the brand; the data goes to whoever registered the look-alike (wave 10).
 */
import { domainToUnicode } from "node:url";
import { renderEvidence } from "./evidence.js";
import { nameSkeleton } from "./lookalike.js";
import { execAll } from "./match.js";
import type { Hit } from "./rules.js";

// Services whose names are worth imitating: code hosts and registries, mail, payments, clouds, identity, chat.
const BRANDS: ReadonlySet<string> = new Set(
  "github gitlab bitbucket npmjs pypi docker google gmail googleapis microsoft office outlook live azure apple icloud amazon aws paypal stripe wise revolut slack discord telegram whatsapp dropbox box notion atlassian okta auth0 cloudflare openai anthropic facebook instagram linkedin twitter coinbase binance metamask ledger".split(" "),
);

// A host: labels of letters, digits and hyphens (any script), a dot between, a top-level domain of letters.
const HOST = /(?<![\p{L}\p{N}.-])(?:[\p{L}\p{N}-]{1,63}\.){1,6}[\p{L}]{2,24}(?![\p{L}\p{N}-])/gu;
const MAX_HOSTS = 64;
// eslint-disable-next-line no-control-regex -- any character outside ASCII
const NOT_ASCII = /[^\u0000-\u007f]/;
const PUNYCODE = /xn--/i;

/** The first host in a text whose name is written to look like a well-known service's without being it. */
export function findLookalikeHost(text: string): Hit | undefined {
  const screened = text.slice(0, 20_000);
  // In ASCII text without `xn--` every host is plain ASCII without punycode, which the loop below passes over.
  if (!NOT_ASCII.test(screened) && !PUNYCODE.test(screened)) return undefined;
  for (const m of execAll(HOST, screened, MAX_HOSTS)) {
    const host = m[0];
    const puny = /(?:^|\.)xn--/i.test(host);
    // Plain ASCII without punycode is what it says (digits for letters are a different trick, left to the tool-name rule).
    if (!puny && /^[\x21-\x7e]+$/.test(host)) continue;
    const shown = puny ? domainToUnicode(host.toLowerCase()) : host;
    if (shown === "") continue;
    const labels = shown.split(".").slice(0, -1);
    for (const label of labels) {
      const skeleton = nameSkeleton(label);
      if (BRANDS.has(skeleton) && label.toLowerCase() !== skeleton) {
        return { rule: "lookalike-domain", evidence: renderEvidence(`${host}${puny ? ` (${shown})` : ""} reads as ${skeleton}`) };
      }
    }
  }
  return undefined;
}
