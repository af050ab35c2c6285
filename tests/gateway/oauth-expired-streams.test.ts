import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { closeWhenExpired } from "../../src/gateway/oauth/expiry-close.js";
import { bearer, MODERN, modernCall, modernHeaders, TOKEN } from "./fast-lane-support.js";
import { startIdentityProvider, type IdentityProvider } from "./fixtures/identity-provider.js";
import { drainStream, type DrainedStream } from "./drain-stream.js";
import { everythingServer, makeHome, waitFor, type TestHome } from "./helpers.js";

const expOf = (jwt: string): number => (JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString()) as { exp: number }).exp * 1000;

/**
 * Requests are authenticated when they arrive, so a stream opened with an OAuth access token used to
 * keep delivering long after the token expired. Now every response an access token opened closes
 * when the token stops being accepted (its `exp` plus the clock tolerance; 0 here). Real gateway,
 * real identity provider signing JWTs, server-everything upstream, real HTTP on 127.0.0.1.
 */
describe("gateway: open streams of an expired OAuth access token", () => {
  let idp: IdentityProvider;
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;

  beforeAll(async () => {
    idp = await startIdentityProvider();
    home = await makeHome({
      servers: { everything: everythingServer() },
      gateway: { oauth: { issuer: idp.url, clockToleranceSec: 0, defaultClient: {} } },
    });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false, expose: "everything" });
    url = new URL(running.url as string);
  }, 120_000);
  afterAll(async () => {
    await running?.close();
    await idp?.close();
    await home?.cleanup();
  });

  const accessToken = (expiresIn: number) => idp.token({ sub: "alice", aud: running.url }, { expiresIn });

  it("a subscriptions/listen stream closes once its access token expires, not before", { timeout: 40_000 }, async () => {
    // Ten seconds: time for a loaded machine to answer with headers and a first progress before it expires.
    const token = await accessToken(10);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...bearer(token), "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "listener", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    expect(response.status, response.status === 200 ? "" : await response.text()).toBe(200);
    const stream = drainStream(response);
    await waitFor(() => stream.ended, 20_000, "the listen stream to close at its token's expiry");
    expect(stream.endedAt).toBeGreaterThanOrEqual(expOf(token));
  });

  it("a long call's progress stream closes once its access token expires", { timeout: 60_000 }, async () => {
    // Ten seconds: time for a loaded machine to answer with headers and a first progress before it expires.
    const token = await accessToken(10);
    const LONG = "trigger-long-running-operation";
    const response = await fetch(url, { method: "POST", headers: modernHeaders(LONG, token), body: JSON.stringify(modernCall(7, LONG, { duration: 40, steps: 40 }, { progressToken: "p7" })) });
    expect(response.status).toBe(200);
    const stream = drainStream(response);
    await waitFor(() => stream.text.includes("notifications/progress"), 15_000, "the first progress notification");
    await waitFor(() => stream.ended, 20_000, "the call stream to close at its token's expiry");
    expect(stream.endedAt).toBeGreaterThanOrEqual(expOf(token));
    expect(stream.text).not.toContain("Long running operation completed");
  });

  it("a token valid for an hour keeps its stream open", { timeout: 30_000 }, async () => {
    const token = await accessToken(3_600);
    const LONG = "trigger-long-running-operation";
    const response = await fetch(url, { method: "POST", headers: modernHeaders(LONG, token), body: JSON.stringify(modernCall(8, LONG, { duration: 3, steps: 3 }, { progressToken: "p8" })) });
    expect(response.status).toBe(200);
    const stream = drainStream(response);
    await waitFor(() => stream.ended, 20_000, "the call to finish");
    expect(stream.text).toContain("Long running operation completed");
  });
});

describe("closeWhenExpired", () => {
  let server: Server;
  let opened: (res: ServerResponse) => void = () => undefined;
  let base = "";
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": open\n\n");
      // Once the client holds the response, as a stream's token expires after it was opened.
      setTimeout(() => opened(res), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function open(acceptedUntil: number): Promise<{ stream: DrainedStream; expired: () => boolean }> {
    let expired = false;
    opened = (res) => closeWhenExpired(res, acceptedUntil, () => (expired = true));
    const stream = drainStream(await fetch(base));
    return { stream, expired: () => expired };
  }

  it("closes at once a response whose token is already past", async () => {
    const { stream, expired } = await open(Date.now() - 1);
    await waitFor(() => stream.ended, 5_000, "the response to close");
    expect(expired()).toBe(true);
  });

  it("keeps open a response whose token lasts longer than Node's longest timer (~24.8 days)", async () => {
    const { stream, expired } = await open(Date.now() + 40 * 24 * 3600 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.ended).toBe(false);
    expect(expired()).toBe(false);
    server.closeAllConnections();
  });
});
