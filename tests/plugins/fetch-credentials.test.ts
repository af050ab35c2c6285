import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchConfigSchema } from "../../plugins/fetch/config.js";
import { createFetchModule } from "../../plugins/fetch/fetch-module.js";
import { invoke } from "./helpers.js";
import { startTestServer, type TestServer } from "./http-fixture.js";

// Two real servers on 127.0.0.1, different ports: two origins, both allowed. A redirect from the first
// to the second must not carry any credential-bearing header the guest sent to the first.

let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  [first, second] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => Promise.all([first.close(), second.close()]));

type Echo = { body: { headers: Record<string, string> } };
const headers = {
  Authorization: "Bearer a",
  Cookie: "s=1",
  "X-Api-Key": "k1",
  "X-Goog-Api-Key": "k2",
  "Private-Token": "k3",
  "X-Auth-Token": "k4",
  "Ocp-Apim-Subscription-Key": "k5",
  "X-Tenant-Pass": "k6",
  "X-Keep": "yes",
  Accept: "application/json",
};
const module = (extra: Record<string, unknown> = {}) =>
  createFetchModule(fetchConfigSchema.parse({ allowDomains: ["127.0.0.1"], allowPrivateAddresses: ["127.0.0.1"], timeoutMs: 2000, ...extra }));

describe("fetch: credential headers do not follow a redirect to another origin", () => {
  it("drops Authorization, Cookie, key/token headers and configured ones on a cross-origin hop; keeps the rest", async () => {
    const fns = module({ credentialHeaders: ["X-Tenant-Pass"] });
    const to = `${second.origin}/echo`;
    const res = (await invoke(fns, "get", `${first.origin}/redirect?to=${encodeURIComponent(to)}`, { headers, responseType: "json" })) as Echo;
    const got = res.body.headers;
    for (const name of ["authorization", "cookie", "x-api-key", "x-goog-api-key", "private-token", "x-auth-token", "ocp-apim-subscription-key", "x-tenant-pass"]) {
      expect(got[name], name).toBeUndefined();
    }
    expect(got["x-keep"]).toBe("yes");
    expect(got.accept).toBe("application/json");
  });

  it("keeps them all on a same-origin redirect", async () => {
    const fns = module({ credentialHeaders: ["X-Tenant-Pass"] });
    const res = (await invoke(fns, "get", `${first.origin}/redirect?to=/echo`, { headers, responseType: "json" })) as Echo;
    expect(res.body.headers["x-api-key"]).toBe("k1");
    expect(res.body.headers["x-tenant-pass"]).toBe("k6");
    expect(res.body.headers.authorization).toBe("Bearer a");
  });

  it("refuses a credentialHeaders entry that is no header name", () => {
    expect(() => fetchConfigSchema.parse({ allowDomains: ["example.com"], credentialHeaders: ["x key"] })).toThrow(/expected a header name/);
  });
});
