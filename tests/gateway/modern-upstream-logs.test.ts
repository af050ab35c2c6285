import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, makeHome, ROOT, type TestHome } from "./helpers.js";

const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const ALL = ["debug:debug message", "info:info message", "warning:warning message", "error:error message"];

/**
 * A 2026-07-28 upstream has no logging/setLevel: it sends log messages only for a request whose
 * `_meta` carries `io.modelcontextprotocol/logLevel` (SEP-2577; the SDK's ctx.mcpReq.log, which
 * the fixture's `log_levels` tool uses, sends none without it). The gateway puts there the level
 * its client asked for — a 2026-07-28 client's own, a 2025 client's logging/setLevel — so a client
 * that asked for logs gets the upstream's, and a 2026-07-28 request that did not gets none (and the
 * upstream is asked for none: no key). A 2025 client that set no level gets every message on a call
 * that can carry them (no-level-client-logs.test.ts); its fast-lane calls carry none, whatever the era.
 */
let home: TestHome;
let running: RunningGateway;
let eventsFile: string;

beforeAll(async () => {
  home = await makeHome({
    servers: { full: { command: process.execPath, args: [FULL], env: { MCPVM_FULL_EVENTS: "${MCPVM_TEST_EVENTS}" } } },
    gateway: { upstreamProtocol: "auto" },
  });
  eventsFile = join(home.dir, "full-events.txt");
  running = await startGateway({ env: { ...home.env, MCPVM_TEST_EVENTS: eventsFile }, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
  expect((await running.gateway.service.clients.connect("full")).protocol.era).toBe("modern");
}, 60_000);

afterAll(async () => {
  await running?.close();
  await home?.cleanup();
});

/** The level the upstream saw on its latest `what` request ("none": no key). */
function levelSeen(what: string): string | undefined {
  const lines = existsSync(eventsFile) ? readFileSync(eventsFile, "utf8").split("\n").filter((line) => line.startsWith(`${what} logLevel `)) : [];
  return lines.at(-1)?.slice(`${what} logLevel `.length);
}

/** Calls the HTTP fast lane answered so far (/health; this gateway has no token). */
async function fastLaneCalls(url: URL): Promise<{ calls: number }> {
  const health = (await (await fetch(new URL("/health", url))).json()) as { fastLane: { calls: number } };
  return health.fastLane;
}

async function connect(era: "modern" | "legacy", capabilities: Record<string, unknown> = {}): Promise<{ client: Client; messages: string[] }> {
  const messages: string[] = [];
  const client = new Client({ name: `upstream-logs-${era}`, version: "1" }, era === "modern" ? { versionNegotiation: { mode: "auto" }, capabilities } : { capabilities });
  client.setNotificationHandler("notifications/message", (n) => void messages.push(`${n.params.level}:${String(n.params.data)}`));
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
  expect(client.getProtocolEra() ?? "legacy").toBe(era);
  return { client, messages };
}

async function callLogging(client: Client, messages: string[], meta: Record<string, unknown> = {}): Promise<string[]> {
  messages.length = 0;
  const result = await client.callTool({ name: "log_levels", arguments: {}, _meta: meta });
  expect(firstText(result)).toBe("logged");
  return [...messages];
}

describe("a 2026-07-28 upstream's log messages to a 2026-07-28 client", () => {
  it("a call names its level to the upstream and gets the messages at or above it; a call without a level asks for none", async () => {
    const { client, messages } = await connect("modern");
    try {
      const url = new URL(running.url as string);
      const fast = (await fastLaneCalls(url)).calls;
      expect(await callLogging(client, messages, { [LOG_LEVEL]: "info" })).toEqual(ALL.slice(1));
      expect(levelSeen("log_levels")).toBe("info");
      expect(await callLogging(client, messages, { [LOG_LEVEL]: "error" })).toEqual(ALL.slice(3));
      // A call that asks for logs is not the fast lane's (its answer is one JSON body); one that asks for none may be.
      expect((await fastLaneCalls(url)).calls).toBe(fast);
      expect(await callLogging(client, messages)).toEqual([]);
      expect(levelSeen("log_levels")).toBe("none");
      expect((await fastLaneCalls(url)).calls).toBe(fast + 1);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("so does a client that declares elicitation (its calls take the input-round path)", async () => {
    const { client, messages } = await connect("modern", { elicitation: { form: {} } });
    try {
      expect(await callLogging(client, messages, { [LOG_LEVEL]: "debug" })).toEqual(ALL);
      expect(await callLogging(client, messages)).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("resources/read carries the level too", async () => {
    const { client } = await connect("modern");
    try {
      await client.readResource({ uri: "test://static-text", _meta: { [LOG_LEVEL]: "warning" } });
      expect(levelSeen("read test://static-text")).toBe("warning");
      await client.readResource({ uri: "test://static-text" });
      expect(levelSeen("read test://static-text")).toBe("none");
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("a 2026-07-28 upstream's log messages to a 2025 client", () => {
  it("none before logging/setLevel; after it, its calls carry the level and get the messages at or above it", async () => {
    const { client, messages } = await connect("legacy");
    try {
      expect(await callLogging(client, messages)).toEqual([]);
      expect(levelSeen("log_levels")).toBe("none");
      const url = new URL(running.url as string);
      await client.setLoggingLevel("warning");
      const fast = (await fastLaneCalls(url)).calls;
      expect(await callLogging(client, messages)).toEqual(ALL.slice(2));
      expect((await fastLaneCalls(url)).calls).toBe(fast);
      expect(levelSeen("log_levels")).toBe("warning");
      await client.setLoggingLevel("debug");
      expect(await callLogging(client, messages)).toEqual(ALL);
      await client.readResource({ uri: "test://static-text" });
      expect(levelSeen("read test://static-text")).toBe("debug");
    } finally {
      await client.close();
    }
  }, 60_000);

  it("one 2025 client's level brings no messages to another that set none, nor a level to its calls", async () => {
    const verbose = await connect("legacy");
    const quiet = await connect("legacy");
    try {
      await verbose.client.setLoggingLevel("debug");
      expect(await callLogging(quiet.client, quiet.messages)).toEqual([]);
      expect(levelSeen("log_levels")).toBe("none");
      expect(await callLogging(verbose.client, verbose.messages)).toEqual(ALL);
      expect(quiet.messages).toEqual([]);
    } finally {
      await verbose.client.close();
      await quiet.client.close();
    }
  }, 60_000);
});

/**
 * run_mcp_script's guest calls go upstream for the client that ran the script, as a direct call does: a module
 * call, a `$batch` item and a call through the async `tools` global alike (each takes its own path into the host).
 */
const SCRIPTS = {
  "a module call": 'return require("host:mcp-full").log_levels({});',
  "a $batch item": 'const [item] = require("host:mcp-full").$batch("log_levels", [{}]); if (!item.ok) throw new Error(item.error.message); return item.value;',
  "the tools global": "return await tools.full.log_levels({});",
};
for (const [how, script] of Object.entries(SCRIPTS)) {
  describe(`a 2026-07-28 upstream's log messages for ${how} made by run_mcp_script`, () => {
    async function runScript(client: Client, messages: string[], meta: Record<string, unknown> = {}): Promise<string[]> {
      messages.length = 0;
      const result = await client.callTool({ name: "run_mcp_script", arguments: { script }, _meta: meta });
      expect(result.isError ?? false, firstText(result)).toBe(false);
      expect(JSON.parse(firstText(result))).toMatchObject({ result: expect.anything() });
      return [...messages];
    }

    it("a 2026-07-28 client's run_mcp_script call names its level to the upstream for the script's calls; one without a level asks for none", async () => {
      const { client, messages } = await connect("modern");
      try {
        expect(await runScript(client, messages, { [LOG_LEVEL]: "info" })).toEqual(ALL.slice(1));
        expect(levelSeen("log_levels")).toBe("info");
        expect(await runScript(client, messages)).toEqual([]);
        expect(levelSeen("log_levels")).toBe("none");
      } finally {
        await client.close();
      }
    }, 60_000);

    it("a 2025 client's logging/setLevel reaches the script's calls (none set: every message, as from a 2025 upstream)", async () => {
      const { client, messages } = await connect("legacy");
      try {
        // run_mcp_script takes the SDK path, where a 2025 client that set no level gets all (no-level-client-logs.test.ts).
        expect(await runScript(client, messages)).toEqual(ALL);
        expect(levelSeen("log_levels")).toBe("debug");
        await client.setLoggingLevel("warning");
        expect(await runScript(client, messages)).toEqual(ALL.slice(2));
        expect(levelSeen("log_levels")).toBe("warning");
      } finally {
        await client.close();
      }
    }, 60_000);
  });
}
