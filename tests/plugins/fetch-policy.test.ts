import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchConfigSchema } from "../../plugins/fetch/config.js";
import { createFetchModule } from "../../plugins/fetch/fetch-module.js";
import fetchPlugin from "../../plugins/fetch/index.js";
import type { Resolver } from "../../plugins/fetch/resolve.js";
import type { HostFunction } from "../../src/sandbox/types.js";
import { callContext, expectFailure, hostModule, invoke } from "./helpers.js";
import { startTestServer, type TestServer } from "./http-fixture.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

/** The plugin as configured by a user: no private-address relaxation. */
const strict = (allowDomains: string[]) => hostModule(fetchPlugin, "fetch", { allowDomains, timeoutMs: 2000 });
/** The relaxed configuration, for the local server only. */
const relaxed = (extra: Record<string, unknown> = {}) =>
  hostModule(fetchPlugin, "fetch", { allowDomains: ["127.0.0.1", "169.254.169.254", "::1", "10.0.0.1"], allowPrivateAddresses: ["127.0.0.1"], timeoutMs: 2000, ...extra });

async function refusedWithoutContact(fns: Record<string, HostFunction>, url: string, code = "FETCH_PRIVATE_ADDRESS"): Promise<void> {
  const before = server.hits.length;
  await expectFailure(invoke(fns, "get", url), code);
  expect(server.hits.length).toBe(before);
}

describe("fetch: private addresses are refused without the relaxation", () => {
  it.each([
    ["127.0.0.1", () => `${server.origin}/text`],
    ["::1", () => `http://[::1]:${server.port}/text`],
    ["::ffff:127.0.0.1", () => `http://[::ffff:127.0.0.1]:${server.port}/text`],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data/"],
    ["10.0.0.1", () => "http://10.0.0.1/"],
    ["192.168.1.1", () => "http://192.168.1.1/"],
    ["100.64.0.1", () => "http://100.64.0.1/"],
    ["0.0.0.0", () => `http://0.0.0.0:${server.port}/text`],
    ["fd00::1", () => "http://[fd00::1]/"],
  ])("refuses %s", async (host, url) => {
    await refusedWithoutContact(await strict([host]), url());
  });

  it("refuses a host name that resolves to loopback (localhost)", async () => {
    const error = await expectFailure(invoke(await strict(["localhost"]), "get", `http://localhost:${server.port}/text`), "FETCH_PRIVATE_ADDRESS");
    expect(error.message).toContain("loopback");
  });

  it("exempts only the listed address: ::1 stays blocked when 127.0.0.1 is relaxed", async () => {
    await refusedWithoutContact(await relaxed(), `http://[::1]:${server.port}/text`);
    await refusedWithoutContact(await relaxed(), "http://169.254.169.254/");
  });

  it("refuses hosts off the allowlist before any DNS lookup", async () => {
    const lookups: string[] = [];
    const fns = createFetchModule(fetchConfigSchema.parse({ allowDomains: ["example.com"] }), {
      resolver: async (host) => {
        lookups.push(host);
        return [];
      },
    });
    await expectFailure(invoke(fns, "get", "https://evil.example.net/"), "FETCH_DOMAIN_NOT_ALLOWED");
    await expectFailure(invoke(fns, "get", "file:///etc/passwd"), "FETCH_PROTOCOL_NOT_ALLOWED");
    expect(lookups).toEqual([]);
  });
});

describe("fetch: redirects are re-checked on every hop", () => {
  it.each([
    ["the metadata address", "http://169.254.169.254/latest/meta-data/", "FETCH_PRIVATE_ADDRESS"],
    ["a private address", "http://10.0.0.1/", "FETCH_PRIVATE_ADDRESS"],
    ["IPv6 loopback", "http://[::1]/", "FETCH_PRIVATE_ADDRESS"],
    ["a host off the allowlist", "https://example.com/", "FETCH_DOMAIN_NOT_ALLOWED"],
    ["another protocol", "file:///etc/passwd", "FETCH_PROTOCOL_NOT_ALLOWED"],
  ])("refuses a redirect to %s", async (_what, target, code) => {
    await expectFailure(invoke(await relaxed(), "get", `${server.origin}/redirect?to=${encodeURIComponent(target)}`), code);
  });

  it("drops credentials when a redirect changes origin, keeps them on the same origin", async () => {
    // api.test is pointed at the same local server by an injected resolver: a second origin.
    const resolver: Resolver = async (host) => (host === "api.test" ? [{ address: "127.0.0.1", family: 4 }] : []);
    const config = fetchConfigSchema.parse({ allowDomains: ["127.0.0.1", "api.test"], allowPrivateAddresses: ["127.0.0.1"] });
    const fns = createFetchModule(config, { resolver });
    const headers = { Authorization: "Bearer secret", Cookie: "s=1", "X-Keep": "yes" };
    type Echo = { body: { headers: Record<string, string> } };
    const cross = (await invoke(fns, "get", `http://api.test:${server.port}/redirect?to=${encodeURIComponent(`${server.origin}/echo`)}`, { headers, responseType: "json" })) as Echo;
    expect(cross.body.headers.authorization).toBeUndefined();
    expect(cross.body.headers.cookie).toBeUndefined();
    expect(cross.body.headers["x-keep"]).toBe("yes");
    const same = (await invoke(fns, "get", `${server.origin}/redirect?to=/echo`, { headers, responseType: "json" })) as Echo;
    expect(same.body.headers.authorization).toBe("Bearer secret");
  });
});

describe("fetch: DNS answers are checked and pinned", () => {
  it("connects to the address it checked, never resolving again (no rebinding window)", async () => {
    const answers = ["127.0.0.1", "10.0.0.1"];
    let calls = 0;
    const resolver: Resolver = async () => [{ address: answers[Math.min(calls++, 1)] ?? "10.0.0.1", family: 4 }];
    const config = fetchConfigSchema.parse({ allowDomains: ["rebind.test"], allowPrivateAddresses: ["127.0.0.1"] });
    const res = await invoke(createFetchModule(config, { resolver }), "get", `http://rebind.test:${server.port}/text`);
    expect(res).toMatchObject({ status: 200, body: "hello wörld" });
    expect(calls).toBe(1);
  });

  it("refuses a name whose answers mix public and private addresses", async () => {
    const resolver: Resolver = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ];
    const fns = createFetchModule(fetchConfigSchema.parse({ allowDomains: ["mixed.test"] }), { resolver });
    await expectFailure(invoke(fns, "get", "http://mixed.test/"), "FETCH_PRIVATE_ADDRESS");
  });

  it("reports names that do not resolve", async () => {
    const fns = createFetchModule(fetchConfigSchema.parse({ allowDomains: ["nowhere.invalid"] }));
    await expectFailure(invoke(fns, "get", "http://nowhere.invalid/"), "FETCH_DNS_FAILED");
  });
});

describe("fetch: size and time caps", () => {
  it("refuses a response whose declared length is over maxResponseBytes", async () => {
    await expectFailure(invoke(await relaxed({ maxResponseBytes: 1000 }), "get", `${server.origin}/big?n=2000`), "FETCH_TOO_LARGE");
  });

  it("stops a chunked response while streaming once it passes maxResponseBytes", async () => {
    await expectFailure(invoke(await relaxed({ maxResponseBytes: 10_000 }), "get", `${server.origin}/big-chunked`), "FETCH_TOO_LARGE");
  });

  it("accepts a response exactly at the cap", async () => {
    const res = (await invoke(await relaxed({ maxResponseBytes: 1000 }), "get", `${server.origin}/big?n=1000`)) as { body: string };
    expect(res.body.length).toBe(1000);
  });

  it("times out a server that never answers (configured timeoutMs)", async () => {
    const started = Date.now();
    await expectFailure(invoke(await relaxed({ timeoutMs: 150 }), "get", `${server.origin}/slow`), "FETCH_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("lets a call shorten the timeout but not extend it", async () => {
    const fns = await relaxed({ timeoutMs: 150 });
    const started = Date.now();
    await expectFailure(invoke(fns, "get", `${server.origin}/slow`, { timeoutMs: 60_000 }), "FETCH_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("honours the run's deadline", async () => {
    const fns = await relaxed();
    const get = fns.get!;
    const started = Date.now();
    await expectFailure(Promise.resolve(get([`${server.origin}/slow`], callContext({ deadline: Date.now() + 150 }))), "FETCH_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(1500);
    const before = server.hits.length;
    await expectFailure(Promise.resolve(get([`${server.origin}/text`], callContext({ deadline: Date.now() - 1 }))), "FETCH_TIMEOUT");
    expect(server.hits.length).toBe(before);
  });

  it("stops when the run is cancelled", async () => {
    const get = (await relaxed()).get!;
    const controller = new AbortController();
    const pending = Promise.resolve(get([`${server.origin}/slow`], callContext({ signal: controller.signal })));
    setTimeout(() => controller.abort(), 50);
    await expectFailure(pending, "FETCH_ABORTED");
  });
});

describe("fetch: configuration", () => {
  it("requires a non-empty allowlist of valid host patterns", () => {
    expect(fetchConfigSchema.safeParse({}).success).toBe(false);
    expect(fetchConfigSchema.safeParse({ allowDomains: [] }).success).toBe(false);
    expect(fetchConfigSchema.safeParse({ allowDomains: ["https://example.com"] }).success).toBe(false);
    expect(fetchConfigSchema.safeParse({ allowDomains: ["example.com"], allowPrivateAddresses: ["localhost"] }).success).toBe(false);
  });

  it("fills in defaults, with no private-address exemption", () => {
    expect(fetchConfigSchema.parse({ allowDomains: ["example.com"] })).toEqual({
      allowDomains: ["example.com"],
      maxResponseBytes: 5 * 1024 * 1024,
      timeoutMs: 30_000,
      maxRedirects: 5,
      credentialHeaders: [],
      allowPrivateAddresses: [],
    });
  });
});
