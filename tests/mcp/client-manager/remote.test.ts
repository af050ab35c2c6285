import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClientManager } from "../../../src/mcp/client-manager/index.js";
import { DEFAULT_SERVER_LIMITS, type McpServerLaunch } from "../../../src/mcp/types.js";
import { expectRejection, managerFor, startNetworkFixture, waitFor } from "./helpers.js";

type NetworkFixture = Awaited<ReturnType<typeof startNetworkFixture>>;

const TOKEN = "tok-1234567890";
const managers: ClientManager[] = [];
let http: NetworkFixture;
let sse: NetworkFixture;

beforeAll(async () => {
  [http, sse] = await Promise.all([
    startNetworkFixture(["--transport", "http", "--require-header", `x-fixture-token=${TOKEN}`, "--mode", "list-changed"]),
    startNetworkFixture(["--transport", "sse", "--require-header", `x-fixture-token=${TOKEN}`]),
  ]);
});

afterAll(async () => {
  await Promise.all([http.stop(), sse.stop()]);
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.closeAll()));
});

function remote(name: string, transport: "http" | "sse", url: string, headers: Record<string, string>): McpServerLaunch {
  return { name, transport, url, headers, limits: { ...DEFAULT_SERVER_LIMITS, connectTimeoutMs: 5_000 }, secrets: Object.values(headers) };
}

describe("remote transports", () => {
  it("streamable HTTP sends the configured headers and calls tools", async () => {
    const made = managerFor([remote("web", "http", http.url, { "x-fixture-token": TOKEN })]);
    managers.push(made.manager);
    expect(await made.manager.callTool("web", "echo", { text: "over http" })).toBe("over http");
    expect(await made.manager.callTool("web", "echo_json", { value: [1, 2] })).toEqual({ echo: [1, 2] });
    expect(made.manager.status("web")).toMatchObject({ state: "connected", transport: "http", pid: undefined });
    // The fixture announces list_changed after its first call; HTTP delivers it too.
    await waitFor(() => made.events.some((e) => e.type === "tools" && e.reason === "list_changed"));
  });

  it("streamable HTTP without the header fails to connect with a typed error", async () => {
    const made = managerFor([remote("web", "http", http.url, { "x-fixture-token": "wrong-token-value" })]);
    managers.push(made.manager);
    const error = await expectRejection(made.manager.connect("web"));
    // The fixture answers 401 without the header: said as such (see connect-diagnostics.test.ts).
    expect(error).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_UNAUTHORIZED" });
    expect(error.message).not.toContain("wrong-token-value");
  });

  it("legacy SSE sends the configured headers and calls tools", async () => {
    const made = managerFor([remote("legacy", "sse", sse.url, { "x-fixture-token": TOKEN })]);
    managers.push(made.manager);
    expect(await made.manager.callTool("legacy", "echo", { text: "over sse" })).toBe("over sse");
    const image = (await made.manager.callTool("legacy", "image", {})) as { mimeType: string; data: Uint8Array };
    expect(image.mimeType).toBe("image/png");
    expect(image.data).toBeInstanceOf(Uint8Array);
  });

  it("streamable HTTP: a server that dies mid-call fails the call at once as a closed connection, not at its timeout", async () => {
    const own = await startNetworkFixture(["--transport", "http"]);
    try {
      const made = managerFor([{ ...remote("dying", "http", own.url, {}), limits: { ...DEFAULT_SERVER_LIMITS, connectTimeoutMs: 5_000, callTimeoutMs: 20_000 } }]);
      managers.push(made.manager);
      expect(await made.manager.callTool("dying", "echo", { text: "up" })).toBe("up");
      const started = Date.now();
      const call = expectRejection(made.manager.callTool("dying", "sleep", { ms: 15_000 }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await own.stop();
      const error = await call;
      expect(error).toMatchObject({ name: "McpTransportError", code: "MCP_TRANSPORT_CLOSED" });
      expect(Date.now() - started).toBeLessThan(8_000);
      await waitFor(() => made.manager.status("dying").state === "error");
    } finally {
      await own.stop();
    }
  }, 30_000);

  it("an unreachable URL fails with McpConnectError, not a hang", async () => {
    const made = managerFor([remote("gone", "http", "http://127.0.0.1:9/mcp", {})]);
    managers.push(made.manager);
    expect(await expectRejection(made.manager.connect("gone"))).toMatchObject({ name: "McpConnectError" });
  });
});
