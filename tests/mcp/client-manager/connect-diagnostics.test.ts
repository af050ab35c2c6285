import { chmodSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConnectTimeoutMs, packageRunner, PACKAGE_RUNNER_CONNECT_TIMEOUT_MS } from "../../../src/mcp/client-manager/connect-timeout.js";
import { resolveLaunch } from "../../../src/mcp/config/index.js";
import { mcpServerEntrySchema } from "../../../src/mcp/config/schema.js";
import { DEFAULT_SERVER_LIMITS, type McpServerLaunch } from "../../../src/mcp/types.js";
import { expectRejection, FIXTURE, fixture, managerFor, startNetworkFixture, stdioLaunch, tempDir , closeManagersAfterEach } from "./helpers.js";

/**
 * What a failed start says: the timeout of a package runner (npx, uvx …) names the command, says a
 * download was likely in progress and where the timeout is raised; HTTP failures name the URL and
 * say what happened (401 → a token is needed, or `mcpvm mcp login` for OAuth; refused; blocked port).
 */

const track = closeManagersAfterEach();

function remote(name: string, transport: "http" | "sse", url: string, headers: Record<string, string> = {}): McpServerLaunch {
  return { name, transport, url, headers, limits: { ...DEFAULT_SERVER_LIMITS, connectTimeoutMs: 5_000 }, secrets: Object.values(headers) };
}

describe("connect timeouts of package runners", () => {
  it("npx, uvx, bunx, pnpm dlx, docker run … are package runners; node and python are not", () => {
    expect(packageRunner("npx", ["-y", "@modelcontextprotocol/server-memory"])).toBe("npx");
    expect(packageRunner("/usr/local/bin/uvx", ["mcp-server-fetch"])).toBe("uvx");
    expect(packageRunner("C:\\node\\npx.cmd", [])).toBe("npx");
    expect(packageRunner("pnpm", ["dlx", "x"])).toBe("pnpm dlx");
    expect(packageRunner("docker", ["run", "-i", "--rm", "mcp/fetch"])).toBe("docker run");
    expect(packageRunner("docker", ["exec", "box", "server"])).toBeUndefined();
    expect(packageRunner("node", ["server.js"])).toBeUndefined();
    expect(packageRunner("python3", ["-m", "server"])).toBeUndefined();
  });

  it("an npx server gets 60 s by default, others 10 s, and an explicit connectTimeoutMs always wins", async () => {
    const env = { env: {} };
    const npx = await resolveLaunch("memory", mcpServerEntrySchema.parse({ command: "npx", args: ["-y", "pkg"] }), env);
    const node = await resolveLaunch("local", mcpServerEntrySchema.parse({ command: "node", args: ["s.js"] }), env);
    const explicit = await resolveLaunch("memory", mcpServerEntrySchema.parse({ command: "npx", args: ["-y", "pkg"], connectTimeoutMs: 5_000 }), env);
    const web = await resolveLaunch("web", mcpServerEntrySchema.parse({ url: "https://example.com/mcp" }), env);
    expect(npx.limits.connectTimeoutMs).toBe(PACKAGE_RUNNER_CONNECT_TIMEOUT_MS);
    expect(node.limits.connectTimeoutMs).toBe(10_000);
    expect(explicit.limits.connectTimeoutMs).toBe(5_000);
    expect(web.limits.connectTimeoutMs).toBe(10_000);
    expect(defaultConnectTimeoutMs({ type: "stdio", command: "uvx", args: ["mcp-server-git"] })).toBe(60_000);
  });

  it("an npx server that does not answer in time: the error names the command, the likely download and how to raise the timeout", async () => {
    // A real process named npx that hangs like a cold download: it never answers initialize.
    const bin = tempDir();
    const npx = join(bin, "npx");
    writeFileSync(npx, `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}" --mode hang-initialize\n`);
    chmodSync(npx, 0o755);
    const made = track(managerFor([stdioLaunch("memory", npx, ["-y", "@modelcontextprotocol/server-memory"], { limits: { connectTimeoutMs: 700 } })], { configFile: "/home/u/.mcpvm/config.json" }));
    const error = await expectRejection(made.manager.connect("memory"));
    expect(error.code).toBe("MCP_CONNECT_TIMEOUT");
    expect(error.message).toContain("within 700 ms");
    expect(error.message).toContain(`The command is \`${npx} -y @modelcontextprotocol/server-memory\``);
    expect(error.message).toContain("npx downloads the package on its first start, so a download was likely still in progress");
    expect(error.message).toContain("set mcpServers.memory.connectTimeoutMs to 60000 in /home/u/.mcpvm/config.json");
    expect(error.message).toContain("mcpvm mcp add memory … --connect-timeout 60s --overwrite");
  });

  it("a plain server that hangs: the error says where connectTimeoutMs is set, with no download story", async () => {
    const made = track(managerFor([fixture("slow", ["--mode", "hang-initialize"], { limits: { connectTimeoutMs: 600 } })]));
    const error = await expectRejection(made.manager.connect("slow"));
    expect(error.code).toBe("MCP_CONNECT_TIMEOUT");
    expect(error.message).toContain("If it is just slow to start, raise the timeout: set mcpServers.slow.connectTimeoutMs to 30000 in config.json");
    expect(error.message).not.toContain("download");
  });

  it("a missing launcher names what to install", async () => {
    const made = track(managerFor([stdioLaunch("git", "uvx-not-installed-here", ["mcp-server-git"])]));
    const error = await expectRejection(made.manager.connect("git"));
    expect(error).toMatchObject({ code: "MCP_SPAWN_FAILED" });
    expect(error.message).toContain("Check the command name and that it is on PATH");
  });
});

describe("HTTP and SSE start-up failures, in words", () => {
  let http: Awaited<ReturnType<typeof startNetworkFixture>>;
  let sse: Awaited<ReturnType<typeof startNetworkFixture>>;
  let open: Awaited<ReturnType<typeof startNetworkFixture>>;

  beforeAll(async () => {
    [http, sse, open] = await Promise.all([
      startNetworkFixture(["--transport", "http", "--require-header", "authorization=Bearer right-token-123"]),
      startNetworkFixture(["--transport", "sse", "--require-header", "authorization=Bearer right-token-123"]),
      startNetworkFixture(["--transport", "http"]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([http.stop(), sse.stop(), open.stop()]);
  });

  it("HTTP 401: says so, names the URL, how to pass a token, and how to log in instead", async () => {
    const made = track(managerFor([remote("linear", "http", http.url, { authorization: "Bearer wrong-token-456" })]));
    const error = await expectRejection(made.manager.connect("linear"));
    expect(error.code).toBe("MCP_CONNECT_UNAUTHORIZED");
    expect(error.message).toContain(`HTTP 401 from ${http.url}`);
    expect(error.message).toContain("this server needs authentication: pass a token with --header 'Authorization: Bearer …'");
    expect(error.message).toContain("run `mcpvm mcp login linear`");
    expect(error.message).not.toContain("wrong-token-456");
  });

  it("docs/MCP.md (Debugging) describes the 401 message as it is: a token, or `mcpvm mcp login` for OAuth", async () => {
    const doc = await readFile(join(import.meta.dirname, "../../../docs/MCP.md"), "utf8");
    const bullet = doc.split("\n- ").find((item) => item.includes("HTTP 401"));
    expect(bullet).toBeDefined();
    expect(bullet).toContain("mcpvm mcp login");
    expect(bullet).not.toMatch(/OAuth login is not supported/);
  });

  it("SSE 401 is explained the same way", async () => {
    const made = track(managerFor([remote("legacy", "sse", sse.url)]));
    const error = await expectRejection(made.manager.connect("legacy"));
    expect(error.code).toBe("MCP_CONNECT_UNAUTHORIZED");
    expect(error.message).toContain(`HTTP 401 from ${sse.url}`);
    expect(error.message).toContain("--sse");
  });

  it("HTTP 404 (a web server, but no MCP endpoint at that path): check the path", async () => {
    const web = createHttpServer((_req, res) => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("Not Found");
    });
    const port = await new Promise<number>((resolve) => web.listen(0, "127.0.0.1", () => resolve((web.address() as { port: number }).port)));
    try {
      const url = `http://127.0.0.1:${port}/v1/mcp`;
      const made = track(managerFor([remote("wrongpath", "http", url)]));
      const error = await expectRejection(made.manager.connect("wrongpath"));
      expect(error.code).toBe("MCP_CONNECT_FAILED");
      expect(error.message).toContain(`HTTP 404 from ${url}: there is no MCP streamable HTTP endpoint at this URL; check the path (it is usually /mcp)`);
    } finally {
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it("connection refused: the URL, the port, and that nothing listens there", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const made = track(managerFor([remote("down", "http", `http://127.0.0.1:${port}/mcp`)]));
    const error = await expectRejection(made.manager.connect("down"));
    expect(error.code).toBe("MCP_CONNECT_FAILED");
    expect(error.message).toContain(`connection refused by 127.0.0.1 port ${port} (http://127.0.0.1:${port}/mcp): nothing is listening there`);
  });

  it("a port fetch refuses (9): says why instead of 'bad port'", async () => {
    const made = track(managerFor([remote("blocked", "http", "http://127.0.0.1:9/mcp")]));
    const error = await expectRejection(made.manager.connect("blocked"));
    expect(error.message).toContain("http://127.0.0.1:9/mcp uses port 9, which fetch refuses to contact");
  });
});

describe("the debug trace of a start and a call", () => {
  it("emits spawn, initialize, tools/list and call timings", async () => {
    const made = track(managerFor([fixture("traced", [])]));
    await made.manager.callTool("traced", "echo", { text: "hi" });
    const timings = made.events.flatMap((e) => (e.type === "timing" ? [e] : []));
    expect(timings.map((t) => t.phase)).toEqual(["spawn", "initialize", "tools/list", "call"]);
    expect(timings[0]?.detail).toMatchObject({ command: expect.stringContaining("fixture-server.mjs") });
    expect(timings[0]?.detail.pid).toBeGreaterThan(0);
    expect(timings[2]?.detail).toMatchObject({ tools: expect.any(Number) });
    expect(timings[3]?.detail).toEqual({ tool: "echo", outcome: "ok" });
    for (const t of timings) expect(t.ms).toBeGreaterThanOrEqual(0);
  });
});
