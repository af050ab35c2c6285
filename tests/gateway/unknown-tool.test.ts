import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, exchange, legacyCall, modernCall, modernHeaders, openLegacySession, startPair, TOKEN, type Pair } from "./fast-lane-support.js";
import { stdioPair, type StdioPair } from "./stdio-lane-support.js";

/**
 * The MCP spec (server/tools, "Error Handling") makes an unknown tool a protocol error (JSON-RPC
 * -32602) and a known tool that failed, or whose arguments it rejected, a tool execution error
 * (`isError` result). Every face answers alike: HTTP and stdio, the fast lane on and off, the
 * 2025 and 2026-07-28 protocol versions.
 */
const UNKNOWN = {
  code: -32602,
  message: 'Unknown tool: this gateway has no tool "no_such_tool"; list the tools again.',
  data: { code: "GATEWAY_TOOL_UNKNOWN", tool: "no_such_tool" },
};
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "unknown-tool-test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

type Answer = { error?: unknown; result?: { isError?: boolean; content?: Array<{ text?: string }> } };

describe("tools/call of a tool the gateway does not have", () => {
  let pair: Pair;
  let stdio: StdioPair;

  beforeAll(async () => {
    [pair, stdio] = await Promise.all([startPair(), stdioPair()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([pair?.close(), stdio?.close()]);
  });

  it.each([
    ["fast lane", "fast"],
    ["SDK path", "slow"],
  ] as const)("HTTP, %s: -32602 in both eras; a failing or mis-called known tool stays isError", async (_what, which) => {
    const url = which === "fast" ? pair.fastUrl : pair.slowUrl;
    const modern = await exchange(url, modernHeaders("no_such_tool"), modernCall(1, "no_such_tool", {}));
    expect(modern.status).toBe(200);
    expect(modern.message).toEqual({ jsonrpc: "2.0", id: 1, error: UNKNOWN });
    const session = await openLegacySession(url);
    const legacy = await exchange(url, session, legacyCall("u", "no_such_tool", {}));
    expect(legacy.message).toEqual({ jsonrpc: "2.0", id: "u", error: UNKNOWN });
    for (const [name, args] of [
      ["fixture_fail", { message: "boom" }],
      ["fixture_echo", { text: 42 }],
    ] as const) {
      const failed = (await exchange(url, session, legacyCall("k", name, args))).message as Answer;
      expect(failed.error).toBeUndefined();
      expect(failed.result?.isError).toBe(true);
      const modernFailed = (await exchange(url, modernHeaders(name), modernCall(2, name, args))).message as Answer;
      expect(modernFailed.result?.isError).toBe(true);
    }
  });

  it.each([
    ["fast lane", true],
    ["SDK path", false],
  ] as const)("stdio, %s: -32602 for a 2026-07-28 request and in a 2025 connection", async (_what, fast) => {
    const modern = (await stdio.connect(fast)).client;
    expect(await modern.request(1, "tools/call", { name: "no_such_tool", arguments: {}, _meta: ENVELOPE })).toEqual({ jsonrpc: "2.0", id: 1, error: UNKNOWN });
    const { client, gateway } = await stdio.connect(fast);
    await client.initialize();
    expect(await client.request(2, "tools/call", { name: "no_such_tool", arguments: {} })).toEqual({ jsonrpc: "2.0", id: 2, error: UNKNOWN });
    const failed = (await client.request(3, "tools/call", { name: "fixture_fail", arguments: { message: "boom" } })) as Answer;
    expect(failed.result?.isError).toBe(true);
    // The lane answered the 2025 calls itself when on (so both paths were compared, not the SDK twice).
    expect(gateway.stdioFastLaneCalls()).toBe(fast ? 2 : undefined);
  });

  it("the SDK's own client gets a ProtocolError it can tell from a tool result, in both eras", async () => {
    for (const mode of ["auto", "legacy"] as const) {
      const client = new Client({ name: "unknown-tool-sdk", version: "1" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(pair.fastUrl, { requestInit: { headers: bearer(TOKEN) } }));
      try {
        const error = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(ProtocolError);
        expect(error).toMatchObject({ code: -32602, data: { code: "GATEWAY_TOOL_UNKNOWN" } });
      } finally {
        await client.close();
      }
    }
  });
});
