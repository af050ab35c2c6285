import { describe, expect, it } from "vitest";
import { fastLaneEnabled } from "../../src/gateway/fast-lane/enabled.js";
import { projectLegacy, projectModern } from "../../src/gateway/fast-lane/encode.js";
import { cancelledRequestId, recognizeFastCall } from "../../src/gateway/fast-lane/recognize.js";
import { legacyCall, modernCall, modernHeaders } from "./fast-lane-support.js";

const LEGACY_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

describe("recognizeFastCall: what the fast lane takes, and what it leaves to the SDK", () => {
  it("takes a plain 2026-07-28 call and a plain call in a 2025 session", () => {
    expect(recognizeFastCall("modern", modernHeaders("fx_echo"), modernCall(3, "fx_echo", { text: "x" }))).toMatchObject({ era: "modern", id: 3, name: "fx_echo", args: { text: "x" }, clientName: "fast-lane-test" });
    expect(recognizeFastCall("legacy", LEGACY_HEADERS, legacyCall("a", "fx_echo", { text: "x" }))).toMatchObject({ era: "legacy", id: "a", name: "fx_echo", clientName: undefined });
    expect(recognizeFastCall("legacy", LEGACY_HEADERS, { ...legacyCall(1, "fx_echo", undefined), params: { name: "fx_echo", _meta: { traceparent: "00-1-2-01" } } })).toMatchObject({ args: undefined, meta: { traceparent: "00-1-2-01" } });
  });

  it.each([
    ["another method", "modern", modernHeaders("fx_echo"), { ...modernCall(1, "fx_echo", {}), method: "tools/list" }],
    ["a gateway tool (run_mcp_script)", "modern", modernHeaders("run_mcp_script"), modernCall(1, "run_mcp_script", { script: "1" })],
    ["an extra top-level member", "modern", modernHeaders("fx_echo"), { ...modernCall(1, "fx_echo", {}), extra: 1 }],
    ["a fractional id", "modern", modernHeaders("fx_echo"), { ...modernCall(1, "fx_echo", {}), id: 1.5 }],
    ["no Accept for SSE", "modern", { ...modernHeaders("fx_echo"), accept: "application/json" }, modernCall(1, "fx_echo", {})],
    ["a text/plain body", "modern", { ...modernHeaders("fx_echo"), "content-type": "text/plain" }, modernCall(1, "fx_echo", {})],
    ["no Mcp-Method header", "modern", { ...modernHeaders("fx_echo"), "mcp-method": undefined }, modernCall(1, "fx_echo", {})],
    ["a log level in the envelope", "modern", modernHeaders("fx_echo"), modernCall(1, "fx_echo", {}, { "io.modelcontextprotocol/logLevel": "debug" })],
    ["sampling declared", "modern", modernHeaders("fx_echo"), modernCall(1, "fx_echo", {}, { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } })],
    ["a clientInfo without a version", "modern", modernHeaders("fx_echo"), modernCall(1, "fx_echo", {}, { "io.modelcontextprotocol/clientInfo": { name: "x" } })],
    ["a requestState (an input round's retry)", "modern", modernHeaders("fx_echo"), { ...modernCall(1, "fx_echo", {}), params: { ...(modernCall(1, "fx_echo", {}).params as object), requestState: "s" } }],
    ["a 2025 session without a version header", "legacy", { ...LEGACY_HEADERS, "mcp-protocol-version": undefined }, legacyCall(1, "fx_echo", {})],
    ["a 2025 session of 2025-03-26", "legacy", { ...LEGACY_HEADERS, "mcp-protocol-version": "2025-03-26" }, legacyCall(1, "fx_echo", {})],
    ["a 2025 progress token", "legacy", LEGACY_HEADERS, { ...legacyCall(1, "fx_echo", {}), params: { name: "fx_echo", arguments: {}, _meta: { progressToken: 1 } } }],
  ] as const)("leaves to the SDK: %s", (_what, era, headers, body) => {
    expect(recognizeFastCall(era, headers as Record<string, string>, body)).toBeUndefined();
  });

  it("names the request a 2025 notifications/cancelled is for", () => {
    expect(cancelledRequestId({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "x", reason: "r" } })).toBe("x");
    expect(cancelledRequestId({ jsonrpc: "2.0", method: "notifications/progress", params: { requestId: "x" } })).toBeUndefined();
  });
});

describe("encode: the SDK codecs' wire form of a tools/call result", () => {
  const info = { name: "mcpvm-gateway", version: "0.1.0" };
  it("2026-07-28: resultType, the server-info stamp (kept if present), a text fallback for non-object structured content", () => {
    expect(projectModern({ content: [{ type: "text", text: "a" }] }, info)).toEqual({ content: [{ type: "text", text: "a" }], resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": info } });
    expect(projectModern({ content: [], _meta: { k: 1 } }, info)._meta).toEqual({ k: 1, "io.modelcontextprotocol/serverInfo": info });
    expect(projectModern({ content: [], structuredContent: [1, 2] as never }, info).content).toEqual([{ type: "text", text: "[1,2]" }]);
  });

  it("2025: non-object structured content, or a non-object advertised schema, is wrapped as { result }", () => {
    expect(projectLegacy({ content: [], structuredContent: { a: 1 } }, { type: "object" })).toEqual({ content: [], structuredContent: { a: 1 } });
    expect(projectLegacy({ content: [], structuredContent: { a: 1 } }, { type: "array" })).toEqual({ content: [], structuredContent: { result: { a: 1 } } });
    expect(projectLegacy({ content: [{ type: "text", text: "7" }], structuredContent: 7 as never }, undefined)).toEqual({ content: [{ type: "text", text: "7" }], structuredContent: { result: 7 } });
  });
});

describe("fastLaneEnabled", () => {
  it("follows config.json unless MCPVM_GATEWAY_FAST_LANE says otherwise, and refuses a value it cannot read", () => {
    expect(fastLaneEnabled(true, {})).toBe(true);
    expect(fastLaneEnabled(false, {})).toBe(false);
    expect(fastLaneEnabled(true, { MCPVM_GATEWAY_FAST_LANE: "0" })).toBe(false);
    expect(fastLaneEnabled(false, { MCPVM_GATEWAY_FAST_LANE: "on" })).toBe(true);
    expect(() => fastLaneEnabled(true, { MCPVM_GATEWAY_FAST_LANE: "maybe" })).toThrow(/MCPVM_GATEWAY_FAST_LANE/);
  });
});
