import { isIP } from "node:net";
import { z } from "zod";
import { parseHostPattern } from "./host-policy.js";

export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;

/** fetch's configuration; plugin.json's configSchema is this schema as JSON Schema (a test keeps them equal). */
export const fetchConfigSchema = z.strictObject({
  allowDomains: z
    .array(z.string().refine((entry) => parseHostPattern(entry) !== undefined, "expected a host name, an IP address or '*.example.com'"))
    .min(1)
    .describe("Hosts guests may contact: an exact host ('api.example.com') or '*.example.com' for any subdomain (not the apex)."),
  maxResponseBytes: z
    .number()
    .int()
    .positive()
    .default(DEFAULT_MAX_RESPONSE_BYTES)
    .describe("Largest response body, in bytes; enforced while streaming."),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .default(DEFAULT_TIMEOUT_MS)
    .describe("Time limit for a whole call (DNS, connection, redirects and body), in milliseconds."),
  maxRedirects: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(DEFAULT_MAX_REDIRECTS)
    .describe("Most redirects followed per call; every hop is re-checked against allowDomains and the address policy."),
  credentialHeaders: z
    .array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "expected a header name"))
    .default([])
    .describe(
      "More request headers that carry a secret, dropped (like Authorization, Cookie and names such as x-api-key or x-auth-token) when a redirect leads to another origin.",
    ),
  allowPrivateAddresses: z
    .array(z.string().refine((entry) => isIP(entry) !== 0, "expected an IP address"))
    .default([])
    .describe(
      "DANGEROUS: exact IP addresses exempted from the private/loopback/link-local block, which protects local services and cloud metadata endpoints. Meant for tests against a local server; leave empty otherwise.",
    ),
});

export type FetchConfig = z.infer<typeof fetchConfigSchema>;
