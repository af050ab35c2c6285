import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { fixtureServer, makeHome, type TestHome } from "./helpers.js";

const TOKEN = "methods-token-0123456789abcdef";

describe("HTTP methods and probe limits of the gateway", () => {
  let home: TestHome;
  let running: RunningGateway;
  let base: string;
  let slow: string;

  beforeAll(async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    const io = captureIo(home.env);
    expect(await runCli(["gateway", "token", "create", "slow", "--rate", "2/s"], io), io.stderrText()).toBe(0);
    slow = io.stdoutText().trim();
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    base = new URL(running.url as string).origin;
  });
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("a method /mcp does not serve: 405 with Allow and a JSON-RPC error, with or without a token", async () => {
    for (const method of ["PUT", "PATCH"]) {
      for (const headers of [{ authorization: `Bearer ${TOKEN}` }, {}] as Array<Record<string, string>>) {
        const response = await fetch(`${base}/mcp`, { method, headers: { ...headers, "content-type": "application/json" }, body: "{}" });
        expect(response.status, method).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
        const json = (await response.json()) as { error: { code: number; message: string } };
        expect(json.error.code).toBe(-32000);
        expect(json.error.message).toContain("GET, POST, DELETE");
      }
    }
  });

  it("a probe or /metrics under another method: 405 with Allow: GET", async () => {
    for (const path of ["/health", "/healthz", "/readyz", "/metrics"]) {
      const response = await fetch(`${base}${path}`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` }, body: "{}" });
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow"), path).toBe("GET");
    }
  });

  it("probes with a client's token count against its rate; probes without one are never limited", async () => {
    const withToken = await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/health`, { headers: { authorization: `Bearer ${slow}` } })));
    const limited = withToken.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10 - 3);
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const readyz = await fetch(`${base}/readyz`, { headers: { authorization: `Bearer ${slow}` } });
    expect(readyz.status).toBe(429);
    // An orchestrator's probes carry no token: however often they come, they are answered.
    const anonymous = await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${base}${["/health", "/healthz", "/readyz"][i % 3]}`)));
    expect(anonymous.map((r) => r.status).filter((s) => s === 429)).toEqual([]);
  });
});
