import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fetchPlugin from "../../plugins/fetch/index.js";
import type { HostFunction } from "../../src/sandbox/types.js";
import { expectFailure, hostModule, invoke } from "./helpers.js";
import { startTestServer, type TestServer } from "./http-fixture.js";

let server: TestServer;
let fns: Record<string, HostFunction>;
const call = (name: string, ...args: unknown[]) => invoke(fns, name, ...args);
type Echo = { method: string; headers: Record<string, string>; body: string };

beforeAll(async () => {
  server = await startTestServer();
  // DANGEROUS relaxation, for this local test server only: 127.0.0.1 is exempt from the loopback block.
  fns = await hostModule(fetchPlugin, "fetch", { allowDomains: ["127.0.0.1"], allowPrivateAddresses: ["127.0.0.1"], timeoutMs: 5000 });
});
afterAll(async () => server.close());

describe("fetch against a local server (loopback explicitly allowed for 127.0.0.1)", () => {
  it("GETs text with status and lowercase headers", async () => {
    const res = await call("get", `${server.origin}/text`);
    expect(res).toMatchObject({ status: 200, statusText: "OK", ok: true, url: `${server.origin}/text`, redirected: false, body: "hello wörld" });
    expect((res as { headers: Record<string, string> }).headers["content-type"]).toBe("text/plain; charset=utf-8");
  });

  it("decodes text by the declared charset", async () => {
    expect(await call("get", `${server.origin}/latin1`)).toMatchObject({ body: "café" });
  });

  it("parses JSON without letting __proto__ keys through", async () => {
    const res = (await call("get", `${server.origin}/json`, { responseType: "json" })) as { body: Record<string, unknown> };
    expect(res.body).toEqual({ items: [1, 2, 3] });
    expect(Object.keys(res.body)).toEqual(["items"]);
  });

  it("refuses a body that is not JSON when JSON was asked for, quoting its start", async () => {
    const error = await expectFailure(call("get", `${server.origin}/not-json`, { responseType: "json" }), "FETCH_INVALID_JSON");
    expect(error.message).toContain("<html>nope");
  });

  it("returns binary bodies as a Uint8Array", async () => {
    const res = (await call("get", `${server.origin}/binary`, { responseType: "binary" })) as { body: Uint8Array };
    expect(res.body).toBeInstanceOf(Uint8Array);
    expect(res.body.length).toBe(256);
    expect(res.body[255]).toBe(255);
  });

  it("returns non-2xx responses instead of throwing", async () => {
    expect(await call("get", `${server.origin}/status?code=404`)).toMatchObject({ status: 404, ok: false, body: "status page" });
  });

  it("HEADs without a body", async () => {
    const res = (await call("head", `${server.origin}/big?n=1234`)) as Record<string, unknown>;
    expect(res).toMatchObject({ status: 200, ok: true });
    expect((res.headers as Record<string, string>)["content-length"]).toBe("1234");
    expect("body" in res).toBe(false);
  });

  it("POSTs JSON values, text and bytes with matching content types", async () => {
    const json = (await call("post", `${server.origin}/echo`, { a: [1, 2] }, { responseType: "json" })) as { body: Echo };
    expect(json.body).toMatchObject({ method: "POST", body: '{"a":[1,2]}' });
    expect(json.body.headers["content-type"]).toBe("application/json");
    const text = (await call("post", `${server.origin}/echo`, "plain", { responseType: "json" })) as { body: Echo };
    expect(text.body.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const bytes = (await call("post", `${server.origin}/echo`, new Uint8Array([104, 105]), { responseType: "json" })) as { body: Echo };
    expect(bytes.body).toMatchObject({ body: "hi" });
    expect(bytes.body.headers["content-type"]).toBe("application/octet-stream");
  });

  it("sends the guest's headers (a given content-type wins) and its own user agent", async () => {
    const res = (await call("post", `${server.origin}/echo`, "<x/>", { headers: { "Content-Type": "application/xml", "X-Trace": "42" }, responseType: "json" })) as { body: Echo };
    expect(res.body.headers).toMatchObject({ "content-type": "application/xml", "x-trace": "42", "user-agent": "mcpvm-fetch/1.0" });
  });

  it("refuses headers the plugin controls and malformed header values", async () => {
    await expectFailure(call("get", `${server.origin}/text`, { headers: { Host: "evil.example" } }), "FETCH_INVALID_ARGUMENT");
    await expectFailure(call("get", `${server.origin}/text`, { headers: { "Content-Length": "1" } }), "FETCH_INVALID_ARGUMENT");
    await expectFailure(call("get", `${server.origin}/text`, { headers: { "X-A": "a\r\nX-Injected: 1" } }), "FETCH_INVALID_ARGUMENT");
    const error = await expectFailure(call("get", 42), "FETCH_INVALID_ARGUMENT");
    expect(error.message).toContain("get(url, options?)");
    await expectFailure(call("get", `${server.origin}/text`, { responseTyp: "json" }), "FETCH_INVALID_ARGUMENT");
  });

  it("follows redirects on the allowlist and reports the final URL", async () => {
    const res = await call("get", `${server.origin}/redirect?to=/text`);
    expect(res).toMatchObject({ status: 200, body: "hello wörld", redirected: true, url: `${server.origin}/text` });
  });

  it("returns the redirect itself when followRedirects is false", async () => {
    const res = (await call("get", `${server.origin}/redirect?to=/text`, { followRedirects: false })) as { status: number; headers: Record<string, string> };
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/text");
  });

  it("turns a POST into a GET without body after 303, and keeps it after 307", async () => {
    const seeOther = (await call("post", `${server.origin}/redirect?code=303&to=/echo`, "data", { responseType: "json" })) as { body: Echo };
    expect(seeOther.body).toMatchObject({ method: "GET", body: "" });
    expect(seeOther.body.headers["content-type"]).toBeUndefined();
    const temporary = (await call("post", `${server.origin}/redirect?code=307&to=/echo`, "data", { responseType: "json" })) as { body: Echo };
    expect(temporary.body).toMatchObject({ method: "POST", body: "data" });
  });

  it("stops redirect loops at maxRedirects", async () => {
    const limited = await hostModule(fetchPlugin, "fetch", { allowDomains: ["127.0.0.1"], allowPrivateAddresses: ["127.0.0.1"], maxRedirects: 3 });
    const before = server.hits.length;
    await expectFailure(invoke(limited, "get", `${server.origin}/loop`), "FETCH_TOO_MANY_REDIRECTS");
    expect(server.hits.length - before).toBe(4);
  });
});
