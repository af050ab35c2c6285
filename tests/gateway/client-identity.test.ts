import { createHash } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { runCli } from "../../src/cli/main.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { everythingServer, makeHome, memoryServer, type TestHome } from "./helpers.js";

const TOKEN = "gateway-token-0123456789abcdef";
// A client token stored under the gateway token's own name, as a hand-edited file or an older mcpvm made it.
const NAMESAKE = `mcpvm_${"n".repeat(43)}`;

/**
 * A client is its name *and* how it proved itself: the gateway token's calls are named `default`,
 * and a client token that carries the same name must not reach the gateway token's sessions (which
 * are unscoped), on the replica that holds them nor on one that would rebuild them from their signed id.
 */
describe("client identity: a name shared by two kinds of credential", () => {
  let home: TestHome;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    const memoryDir = await mkdtemp(join(tmpdir(), "mcpvm-gw-memory-"));
    home = await makeHome({ servers: { everything: everythingServer(), memory: memoryServer(memoryDir) } });
    const sha256 = createHash("sha256").update(NAMESAKE, "utf8").digest("hex");
    const clients = { version: 1, clients: { default: { sha256, prefix: NAMESAKE.slice(0, 10), createdAt: new Date().toISOString(), servers: ["memory"] } } };
    await writeFile(join(home.dir, "gateway-clients.json"), JSON.stringify(clients), { mode: 0o600 });
    // Two replicas of one config home share the session key: either can rebuild the other's sessions.
    for (let i = 0; i < 2; i++) gateways.push(await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "error", pretty: false }));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    await home?.cleanup();
  });

  it("refuses to make a client token named default or anonymous (exit 2, saying why)", async () => {
    for (const name of ["default", "Anonymous"]) {
      const io = captureIo(home.env);
      const code = await runCli(["gateway", "token", "create", name, "--servers", "memory"], io);
      expect(code).toBe(2);
      expect(io.stderrText()).toContain("is reserved");
      expect(io.stdoutText()).not.toMatch(/mcpvm_/);
    }
  });

  it("keeps the gateway token's session from a client token of the same name, on either replica", async () => {
    const [first, second] = gateways.map((g) => new URL(g.url as string));
    const admin = new V1Client({ name: "admin", version: "1" });
    const transport = new V1HttpTransport(first as URL, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    await admin.connect(transport);
    try {
      const session = transport.sessionId as string;
      for (const url of [first, second]) {
        const crossed = await fetch(url as URL, {
          method: "POST",
          headers: { authorization: `Bearer ${NAMESAKE}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
        });
        expect(crossed.status, `${url?.host}: ${await crossed.text()}`).toBe(404);
      }
      // The namesake still works on its own, limited to its servers.
      const own = new V1Client({ name: "namesake", version: "1" });
      await own.connect(new V1HttpTransport(first as URL, { requestInit: { headers: { authorization: `Bearer ${NAMESAKE}` } } }));
      expect((await own.listTools()).tools.map((t) => t.name)).not.toContain("build-toolset");
      await own.close();
      // And the gateway token's session is still its own.
      expect((await admin.listTools()).tools.map((t) => t.name)).toContain("build-toolset");
    } finally {
      await admin.close();
    }
  });
});
