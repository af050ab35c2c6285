import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { checkCallToolResult, RAW_ID_PREFIX, RawToolCalls } from "../../../src/mcp/client-manager/raw-call.js";
import { closeManagersAfterEach, expectRejection, managerFor, ROOT, stdioLaunch } from "./helpers.js";

const RAW_ECHO = join(ROOT, "tests", "fixtures", "servers", "raw-echo-server.mjs");
const rawEcho = (name: string, limits = {}) => stdioLaunch(name, process.execPath, [RAW_ECHO], { env: { MCPVM_RAW_ECHO_SHOW_ID: "1" }, limits });
const textOf = (result: { content: Array<{ type: string; text?: string }> }): string => result.content[0]?.text ?? "";

describe("checkCallToolResult (the structural check instead of the SDK's schema)", () => {
  it("accepts every content kind, structured content and isError, and drops a resultType", () => {
    const result = {
      content: [
        { type: "text", text: "a" },
        { type: "image", data: "AA==", mimeType: "image/png" },
        { type: "audio", data: "AA==", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///a", name: "a" },
        { type: "resource", resource: { uri: "file:///a", text: "x" } },
      ],
      structuredContent: { a: 1 },
      isError: false,
      _meta: { k: 1 },
    };
    expect(checkCallToolResult(result)).toEqual({ ok: true, result });
    expect(checkCallToolResult({ content: [], resultType: "complete" })).toEqual({ ok: true, result: { content: [] } });
  });

  it.each([
    ["not an object", "x", "the result is not an object"],
    ["no content", {}, "content is not an array"],
    ["content not an array", { content: "x" }, "content is not an array"],
    ["a text item without text", { content: [{ type: "text" }] }, "a text item has no string text"],
    ["an unknown kind", { content: [{ type: "video" }] }, 'a content item has the unknown type "video"'],
    ["an image without mimeType", { content: [{ type: "image", data: "AA==" }] }, "an image item needs string data and mimeType"],
    ["structuredContent an array", { content: [], structuredContent: [1] }, "structuredContent is not an object"],
    ["isError a string", { content: [], isError: "yes" }, "isError is not a boolean"],
  ])("refuses %s", (_what, value, problem) => {
    expect(checkCallToolResult(value)).toEqual({ ok: false, problem });
  });
});

describe("RawToolCalls (ids, matching, timeouts, cancellation, connection loss)", () => {
  function calls(): { raw: RawToolCalls; lines: Array<Record<string, unknown>> } {
    const lines: Array<Record<string, unknown>> = [];
    const raw = new RawToolCalls(async (line) => {
      expect(line.endsWith("\n")).toBe(true);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    return { raw, lines };
  }

  it("sends tools/call under its own string id and resolves with the matching answer only", async () => {
    const { raw, lines } = calls();
    const first = raw.call("echo", { text: "a" }, { timeout: 5_000 });
    const second = raw.call("echo", { text: "b" }, { timeout: 5_000 });
    await Promise.resolve();
    expect(lines).toEqual([
      { jsonrpc: "2.0", id: `${RAW_ID_PREFIX}1`, method: "tools/call", params: { name: "echo", arguments: { text: "a" } } },
      { jsonrpc: "2.0", id: `${RAW_ID_PREFIX}2`, method: "tools/call", params: { name: "echo", arguments: { text: "b" } } },
    ]);
    // The SDK's own traffic is not taken: numeric ids, requests and notifications.
    expect(raw.intercept({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
    expect(raw.intercept({ jsonrpc: "2.0", id: `${RAW_ID_PREFIX}1`, method: "ping" })).toBe(false);
    expect(raw.intercept({ jsonrpc: "2.0", id: `${RAW_ID_PREFIX}2`, result: { content: [{ type: "text", text: "b" }] } })).toBe(true);
    expect(raw.intercept({ jsonrpc: "2.0", id: `${RAW_ID_PREFIX}1`, result: { content: [{ type: "text", text: "a" }] } })).toBe(true);
    expect(textOf(await first)).toBe("a");
    expect(textOf(await second)).toBe("b");
    // A late or unknown answer in our id space is dropped, never handed to the SDK.
    expect(raw.intercept({ jsonrpc: "2.0", id: `${RAW_ID_PREFIX}99`, result: {} })).toBe(true);
    expect(raw.inFlight).toBe(0);
  });

  it("an error answer is the server's ProtocolError; a malformed result is the SDK's InvalidResult", async () => {
    const { raw } = calls();
    const refused = raw.call("echo", {}, { timeout: 5_000 });
    raw.intercept({ jsonrpc: "2.0", id: `${RAW_ID_PREFIX}1`, error: { code: -32602, message: "bad params", data: { x: 1 } } });
    const error = await refused.catch((e: unknown) => e);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: -32602, message: "bad params", data: { x: 1 } });
    const malformed = raw.call("echo", {}, { timeout: 5_000 });
    raw.intercept({ jsonrpc: "2.0", id: `${RAW_ID_PREFIX}2`, result: { content: 1 } });
    const invalid = await malformed.catch((e: unknown) => e);
    expect(SdkError.isInstance(invalid) && invalid.code === SdkErrorCode.InvalidResult).toBe(true);
  });

  it("a timeout rejects as the SDK's RequestTimeout and tells the server with notifications/cancelled", async () => {
    const { raw, lines } = calls();
    const error = await raw.call("sleep", {}, { timeout: 20 }).catch((e: unknown) => e);
    expect(SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout).toBe(true);
    expect(lines[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: `${RAW_ID_PREFIX}1` } });
    expect(raw.inFlight).toBe(0);
  });

  it("the caller's signal cancels (with notifications/cancelled); the connection's end fails what is in flight", async () => {
    const { raw, lines } = calls();
    const controller = new AbortController();
    const cancelled = raw.call("sleep", {}, { timeout: 5_000, signal: controller.signal });
    controller.abort(new Error("caller gave up"));
    expect(await cancelled.catch((e: unknown) => (e as Error).message)).toBe("caller gave up");
    expect(lines[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: `${RAW_ID_PREFIX}1`, reason: "caller gave up" } });
    const lost = raw.call("sleep", {}, { timeout: 5_000 });
    raw.failAll();
    const error = await lost.catch((e: unknown) => e);
    expect(SdkError.isInstance(error) && error.code === SdkErrorCode.ConnectionClosed).toBe(true);
  });
});

describe("ClientManager tool calls over the raw path, against a real server process", () => {
  const track = closeManagersAfterEach();

  it("plain calls use our id space, typed tools the SDK's; 200 concurrent calls are answered each with its own text", async () => {
    const { manager } = track(managerFor([rawEcho("raw")]));
    const plain = await manager.callToolRaw("raw", "echo", { text: "x" });
    expect(textOf(plain as never)).toMatch(new RegExp(`^x\\|${RAW_ID_PREFIX}\\d+$`));
    const typed = await manager.callToolRaw("raw", "echo_typed", { text: "y" });
    expect(textOf(typed as never)).toMatch(/^y\|\d+$/);
    expect(typed.structuredContent).toEqual({ text: textOf(typed as never) });
    const texts = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const answers = await Promise.all(texts.map((text) => manager.callToolRaw("raw", "echo", { text })));
    expect(answers.map((a) => textOf(a as never).split("|")[0])).toEqual(texts);
  });

  it("a malformed result is MCP_TOOL_INVALID_RESULT and the server stays up", async () => {
    const { manager } = track(managerFor([rawEcho("raw")]));
    expect(await expectRejection(manager.callToolRaw("raw", "malformed", {}))).toMatchObject({ code: "MCP_TOOL_INVALID_RESULT" });
    expect(textOf((await manager.callToolRaw("raw", "echo", { text: "after" })) as never)).toMatch(/^after\|/);
  });

  it("a call past its timeout is MCP_CALL_TIMEOUT and the server hears notifications/cancelled for it", async () => {
    const { manager } = track(managerFor([rawEcho("raw", { callTimeoutMs: 200 })]));
    expect(await expectRejection(manager.callToolRaw("raw", "sleep", { ms: 5_000 }))).toMatchObject({ code: "MCP_CALL_TIMEOUT" });
    const cancelled = JSON.parse(textOf((await manager.callToolRaw("raw", "cancelled", {})) as never)) as string[];
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatch(new RegExp(`^${RAW_ID_PREFIX}`));
  });

  it("the caller's signal is MCP_CALL_CANCELLED; a server that dies mid-call is MCP_TRANSPORT_CLOSED and the next call restarts it", async () => {
    const { manager } = track(managerFor([rawEcho("raw")]));
    await manager.callToolRaw("raw", "echo", { text: "connect" });
    const controller = new AbortController();
    const call = manager.callToolRaw("raw", "sleep", { ms: 5_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 100);
    expect(await expectRejection(call)).toMatchObject({ code: "MCP_CALL_CANCELLED" });
    const pid = manager.status("raw").pid;
    expect(pid).toBeDefined();
    const dying = manager.callToolRaw("raw", "sleep", { ms: 5_000 });
    setTimeout(() => process.kill(pid as number, "SIGKILL"), 100);
    expect(await expectRejection(dying)).toMatchObject({ code: "MCP_TRANSPORT_CLOSED" });
    expect(textOf((await manager.callToolRaw("raw", "echo", { text: "again" })) as never)).toMatch(/^again\|/);
  });
});
