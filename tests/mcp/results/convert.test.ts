import { describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { toGuestValue, toolErrorText, utf8Prefix, type ResultLogger } from "../../../src/mcp/results/index.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64");
const MB = 1024 * 1024;

function convert(result: CallToolResult, maxResponseBytes = MB, logger?: ResultLogger) {
  return toGuestValue(result, { maxResponseBytes, server: "srv", tool: "t", ...(logger === undefined ? {} : { logger }) });
}

function recordingLogger(): { logger: ResultLogger; warnings: { data: Record<string, unknown>; message: string }[] } {
  const warnings: { data: Record<string, unknown>; message: string }[] = [];
  return { logger: { warn: (data, message) => warnings.push({ data, message }) }, warnings };
}

describe("toGuestValue", () => {
  it("returns structuredContent when present, ignoring the text rendering", () => {
    const result = { content: [{ type: "text", text: "ignored" }], structuredContent: { temperature: 36 } } as CallToolResult;
    expect(convert(result)).toEqual({ value: { temperature: 36 }, truncated: false });
  });

  it("parses text that is a JSON object or array", () => {
    expect(convert({ content: [{ type: "text", text: '{"a":[1,2]}' }] }).value).toEqual({ a: [1, 2] });
    expect(convert({ content: [{ type: "text", text: " [true, null]" }] }).value).toEqual([true, null]);
  });

  it("keeps other text as a string (bare numbers too, so long ids keep their digits)", () => {
    expect(convert({ content: [{ type: "text", text: "hello" }] }).value).toBe("hello");
    expect(convert({ content: [{ type: "text", text: "12345678901234567890" }] }).value).toBe("12345678901234567890");
    expect(convert({ content: [{ type: "text", text: "{not json" }] }).value).toBe("{not json");
  });

  it("drops prototype-polluting keys from parsed and structured data", () => {
    const parsed = convert({ content: [{ type: "text", text: '{"__proto__":{"polluted":1},"ok":1}' }] }).value as Record<string, unknown>;
    expect(parsed).toEqual({ ok: 1 });
    expect(Object.keys(parsed)).toEqual(["ok"]);
    const structured = JSON.parse('{"constructor":{"x":1},"nested":{"__proto__":{"y":2},"z":3}}') as Record<string, unknown>;
    expect(convert({ content: [], structuredContent: structured }).value).toEqual({ nested: { z: 3 } });
  });

  it("gives several content items as an array and none as null", () => {
    expect(convert({ content: [{ type: "text", text: "a" }, { type: "text", text: '{"b":1}' }] }).value).toEqual(["a", { b: 1 }]);
    expect(convert({ content: [] }).value).toBeNull();
  });

  it("gives images and audio as { type, mimeType, data: Uint8Array }", () => {
    const value = convert({
      content: [
        { type: "image", mimeType: "image/png", data: PNG },
        { type: "audio", mimeType: "audio/wav", data: PNG },
      ],
    }).value as { type: string; mimeType: string; data: Uint8Array }[];
    expect(value[0]).toEqual({ type: "image", mimeType: "image/png", data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) });
    expect(value[0]?.data).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(value[0]?.data)).toBe(false);
    expect(value[1]?.type).toBe("audio");
  });

  it("gives resource links and embedded resources with their uri", () => {
    const value = convert({
      content: [
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "mem://note", mimeType: "text/plain", text: "note" } },
        { type: "resource", resource: { uri: "mem://data", mimeType: "application/json", text: '{"k":1}' } },
        { type: "resource", resource: { uri: "mem://blob", blob: PNG } },
      ],
    }).value;
    expect(value).toEqual([
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", uri: "mem://note", mimeType: "text/plain", text: "note" },
      { type: "resource", uri: "mem://data", mimeType: "application/json", text: { k: 1 } },
      { type: "resource", uri: "mem://blob", data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    ]);
  });

  it("does not warn or mark results within the limit", () => {
    const { logger, warnings } = recordingLogger();
    expect(convert({ content: [{ type: "text", text: "x".repeat(100) }] }, 100, logger).truncated).toBe(false);
    expect(warnings).toEqual([]);
  });
});

describe("toGuestValue over maxResponseBytes", () => {
  it("cuts a long text to the limit inside an explicit envelope and warns", () => {
    const { logger, warnings } = recordingLogger();
    const conversion = convert({ content: [{ type: "text", text: "x".repeat(250) }] }, 100, logger);
    expect(conversion).toEqual({
      truncated: true,
      value: { truncated: true, limitBytes: 100, totalBytes: 250, omittedItems: 0, value: "x".repeat(100) },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toBe(
      "MCP result of srv.t truncated: 250 bytes is over maxResponseBytes 100; to get such results whole, raise mcpServers.srv.maxResponseBytes in config.json (bytes)",
    );
    expect(warnings[0]?.data).toMatchObject({ server: "srv", tool: "t", limitBytes: 100, totalBytes: 250 });
  });

  it("keeps whole items that fit, cuts the next text and counts what was left out", () => {
    const conversion = convert(
      {
        content: [
          { type: "text", text: "a".repeat(40) },
          { type: "text", text: "b".repeat(100) },
          { type: "image", mimeType: "image/png", data: PNG },
        ],
      },
      100,
    );
    expect(conversion.value).toEqual({ truncated: true, limitBytes: 100, totalBytes: 144, omittedItems: 1, value: ["a".repeat(40), "b".repeat(60)] });
  });

  it("leaves out a binary item that does not fit", () => {
    const big = Buffer.alloc(300, 1).toString("base64");
    const conversion = convert({ content: [{ type: "text", text: "caption" }, { type: "image", mimeType: "image/png", data: big }] }, 100);
    expect(conversion.value).toEqual({ truncated: true, limitBytes: 100, totalBytes: 307, omittedItems: 1, value: "caption" });
  });

  it("gives oversized structured content as the start of its JSON text", () => {
    const conversion = convert({ content: [], structuredContent: { list: "y".repeat(200) } }, 50);
    expect(conversion.value).toEqual({
      truncated: true,
      limitBytes: 50,
      totalBytes: 211,
      omittedItems: 0,
      value: `{"list":"${"y".repeat(41)}`,
    });
  });

  it("never splits a UTF-8 character", () => {
    expect(utf8Prefix("aé日", 1)).toBe("a");
    expect(utf8Prefix("aé日", 2)).toBe("a");
    expect(utf8Prefix("aé日", 3)).toBe("aé");
    expect(utf8Prefix("aé日", 5)).toBe("aé");
    expect(utf8Prefix("aé日", 6)).toBe("aé日");
  });
});

describe("toolErrorText", () => {
  it("joins text items, falls back to JSON, and caps the length", () => {
    expect(toolErrorText({ isError: true, content: [{ type: "text", text: "bad" }, { type: "text", text: "input" }] })).toBe("bad\ninput");
    expect(toolErrorText({ isError: true, content: [{ type: "image", mimeType: "image/png", data: PNG }] })).toContain('"type":"image"');
    expect(toolErrorText({ isError: true, content: [] })).toBe("(no details given)");
    expect(toolErrorText({ isError: true, content: [{ type: "text", text: "z".repeat(30) }] }, 10)).toBe(`${"z".repeat(10)}… [20 more characters]`);
  });
});
