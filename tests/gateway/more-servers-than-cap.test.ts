import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { bearer, exchange, modernCall, modernHeaders, TOKEN } from "./fast-lane-support.js";
import { fixtureServer, makeHome, type TestHome } from "./helpers.js";

/**
 * A gateway with more approved servers than the mcp plugin's maxLiveConnections (5 by default; 2
 * here): a client's first listing starts every server at once, and none may be reported as failed
 * ("cannot start: … every one has a call in flight") merely because the others were starting too.
 * Real gateway in this process, fixture servers as real processes, real HTTP on 127.0.0.1.
 */
describe("a gateway with more servers than maxLiveConnections", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;

  beforeAll(async () => {
    home = await makeHome({
      servers: { a: fixtureServer("/dev/null"), b: fixtureServer("/dev/null"), c: fixtureServer("/dev/null") },
      mcp: { maxLiveConnections: 2 },
      gateway: { healthIntervalMs: 0 },
    });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    url = new URL(running.url as string);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("lists every server's tools on a client's first list_mcp_tools, and is ready", async () => {
    const answer = await exchange(url, modernHeaders("list_mcp_tools"), modernCall(1, "list_mcp_tools", {}));
    const text = (answer.message as { result: { content: Array<{ text: string }> } }).result.content[0]?.text ?? "";
    expect(text).not.toContain("Not available");
    for (const server of ["a", "b", "c"]) expect(text).toContain(`host:mcp-${server}`);
    const ready = await fetch(new URL("/readyz", url), { headers: bearer(TOKEN) });
    expect(await ready.json()).toEqual({ status: "ready", failing: [] });
  });
});
