import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolsetStore } from "../../src/gateway/index.js";
import { everythingServer, firstText, fixtureServer, jsonOf, makeHome, SERVE_ENTRY, VITE_NODE, waitFor, type TestHome } from "./helpers.js";

/** `mcpvm serve` as a child process on stdio, the way Claude Code or VS Code start it. */
function serveArgs(...extra: string[]): string[] {
  return [VITE_NODE, SERVE_ENTRY, "--", ...extra];
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("mcpvm serve (stdio)", () => {
  let home: TestHome;
  let startsFile: string;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer(), fixture: fixtureServer("/dev/null") }, approve: ["everything"] });
    startsFile = join(home.dir, "fixture-starts.txt");
    // The fixture server is configured with a starts file but never approved.
    const configFile = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(configFile, "utf8")) as { mcpServers: Record<string, { env: Record<string, string> }> };
    (config.mcpServers.fixture as { env: Record<string, string> }).env.MCPVM_FIXTURE_STARTS = startsFile;
    await import("node:fs/promises").then((fs) => fs.writeFile(configFile, JSON.stringify(config), { mode: 0o600 }));
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "echoes", tools: ["everything.echo"] });
  });

  afterAll(async () => {
    await home?.cleanup();
  });

  it("serves an SDK v2 client (2026-07-28) with a toolset equipped at start, keeping stdout for MCP only", { timeout: 180_000 }, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs("--toolset", "echoes", "--log-level", "debug"), env: home.env, stderr: "pipe" });
    const client = new Client({ name: "stdio-v2", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain("everything_echo");
      expect(tools).toContain("run_mcp_script");
      const echoed = await client.callTool({ name: "everything_echo", arguments: { message: "over stdio" } });
      expect(firstText(echoed)).toContain("over stdio");
      const run = jsonOf<{ result: unknown }>(await client.callTool({ name: "run_mcp_script", arguments: { script: 'return require("host:mcp-everything").echo({ message: "m" })' } }));
      expect(JSON.stringify(run.result)).toContain("m");
    } finally {
      await client.close();
    }
  });

  it("serves a v1 SDK client: equip sends list_changed; an unapproved server is described, never started", { timeout: 60_000 }, async () => {
    const transport = new V1StdioTransport({ command: process.execPath, args: serveArgs(), env: home.env, stderr: "pipe" });
    let changes = 0;
    const client = new V1Client({ name: "stdio-v1", version: "1" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changes += 1));
    await client.connect(transport);
    try {
      const listed = (await client.listTools()).tools;
      const runTool = listed.find((t) => t.name === "run_mcp_script");
      expect(runTool?.description).toContain("fixture is not approved");
      expect(runTool?.description).toContain("mcpvm mcp approve fixture");
      expect(listed.some((t) => t.name === "everything_echo")).toBe(false);

      const refused = jsonOf<{ error: { message: string; errorCode?: string } }>(await client.callTool({ name: "run_mcp_script", arguments: { script: 'return require("host:mcp-fixture").echo({ text: "x" })' } }));
      expect(refused.error.message).toMatch(/approv/i);
      const discovered = jsonOf<{ unavailable: string[] }>(await client.callTool({ name: "discover-all-tools", arguments: {} }));
      expect(discovered.unavailable.join("\n")).toContain("fixture is not approved");

      await client.callTool({ name: "equip-toolset", arguments: { name: "echoes" } });
      await waitFor(() => changes > 0, 5_000, "list_changed");
      expect((await client.listTools()).tools.some((t) => t.name === "everything_echo")).toBe(true);
      expect(existsSync(startsFile)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("shuts down gracefully on SIGTERM, closing the upstream servers it started", { timeout: 60_000 }, async () => {
    const own = await makeHome({ servers: { fixture: fixtureServer(join(home.dir, "approved-starts.txt")) } });
    try {
      const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(), env: own.env, stderr: "pipe" });
      const client = new Client({ name: "stdio-v2", version: "1" });
      await client.connect(transport);
      const gatewayPid = transport.pid as number;
      const run = jsonOf<{ result: string }>(await client.callTool({ name: "run_mcp_script", arguments: { script: 'return require("host:mcp-fixture").pid({})' } }));
      const upstreamPid = Number(JSON.stringify(run.result).match(/\d+/)?.[0]);
      expect(processAlive(upstreamPid)).toBe(true);
      process.kill(gatewayPid, "SIGTERM");
      await waitFor(() => !processAlive(gatewayPid), 10_000, "gateway exit");
      expect(processAlive(upstreamPid)).toBe(false);
      await client.close();
    } finally {
      await own.cleanup();
    }
  });
});
