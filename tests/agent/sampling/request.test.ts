import { describe, expect, it } from "vitest";
import { LlmConfigError, resolveModel, type ResolvedModel } from "../../../src/agent/llm/model-config.js";
import { decideSampling, grantedMaxTokens, renderSamplingRequest, stopReasonOf, toModelMessages, viewSamplingRequest, type SamplingParams } from "../../../src/agent/sampling/index.js";

/** The pure half of sampling: what the person is shown, what is decided before asking, what the model gets. */
// A local endpoint: OpenAI's own would need a key (LLM_KEY_MISSING); nothing here calls the model.
const model: ResolvedModel = resolveModel({ provider: "openai-compatible", model: "small", baseUrl: "http://127.0.0.1:9/v1" }, {});
const ESC = String.fromCharCode(27);

const request = (over: Partial<SamplingParams> = {}): SamplingParams => ({
  messages: [{ role: "user", content: { type: "text", text: "Summarise the weather." } }],
  maxTokens: 300,
  ...over,
});

describe("a sampling request as the person reads it", () => {
  it("shows who asks, the system prompt, every message, the token bound and the model preferences", () => {
    const view = viewSamplingRequest(
      "weather",
      request({
        systemPrompt: "You are terse.",
        messages: [
          { role: "user", content: { type: "text", text: "Summarise the weather." } },
          { role: "assistant", content: { type: "text", text: "Which city?" } },
          { role: "user", content: [{ type: "text", text: "Oslo" }, { type: "image", data: "AAAA".repeat(400), mimeType: "image/png" }] },
        ],
        temperature: 0.2,
        stopSequences: ["END"],
        modelPreferences: { hints: [{ name: "claude-3-haiku" }], costPriority: 0.9, speedPriority: 0.5 },
        includeContext: "thisServer",
      }),
      1024,
    );
    const text = renderSamplingRequest(view, "openai-compatible:small", 42);
    expect(text).toContain("MCP server weather asks the model to write a reply (sampling).");
    expect(text).toContain("  system prompt:\n    You are terse.");
    expect(text).toContain("  user:\n    Summarise the weather.");
    expect(text).toContain("  assistant:\n    Which city?");
    expect(text).toContain("    Oslo\n    [image image/png, 1 KB]");
    expect(text).toContain("size: about 42 tokens in, at most 300 tokens out");
    expect(text).toContain('settings: temperature 0.2, stop at "END"');
    expect(text).toContain("model preferences: prefers claude-3-haiku; cost 0.9, speed 0.5");
    expect(text).toContain("asks to include context from thisServer: not included");
    expect(text).toContain("answered by: openai-compatible:small");
    expect(view.unsupported).toBeUndefined();
  });

  it("bounds the reply by the configured cap and says so", () => {
    const view = viewSamplingRequest("big", request({ maxTokens: 100_000 }), 512);
    expect(view.grantedMaxTokens).toBe(512);
    expect(renderSamplingRequest(view, undefined)).toContain("at most 512 tokens out (the server asked for 100000; the cap is 512)");
    expect(grantedMaxTokens(10, 512)).toBe(10);
    expect(grantedMaxTokens(0, 512)).toBe(1);
  });

  it("escapes terminal controls and bidi characters in everything the server wrote, and shortens long texts", () => {
    const view = viewSamplingRequest(`evil${ESC}[2J`, request({ systemPrompt: `${ESC}]0;title\u0007x`, messages: [{ role: "user", content: { type: "text", text: `ok\u202edlrow ${"y".repeat(5000)}` } }] }), 1024);
    const text = renderSamplingRequest(view, undefined);
    expect(text).not.toContain(ESC);
    expect(text).not.toContain("\u202e");
    expect(text).toContain("MCP server evil\\x1b[2J asks");
    expect(text).toContain("\\x1b]0;title\\x07x");
    expect(text).toContain("ok\\u202edlrow");
    expect(text).toMatch(/… \(3,00\d more characters not shown\)/);
  });
});

describe("whether a sampling request is asked at all", () => {
  const noModel = () => {
    throw new LlmConfigError("LLM_NOT_CONFIGURED", "No LLM is configured. Set MCPVM_MODEL.");
  };

  it("asks when there is a model and a person", () => {
    expect(decideSampling(viewSamplingRequest("s", request(), 1024), { model: () => model, canAsk: true })).toEqual({ kind: "ask", model });
  });

  it("declines tool use and audio before anything else, then no model, then nobody to ask", () => {
    const tools = viewSamplingRequest("s", request({ tools: [{ name: "t", inputSchema: { type: "object" } }] }), 1024);
    expect(decideSampling(tools, { model: noModel, canAsk: false })).toMatchObject({ kind: "refuse", refusal: "unsupported", message: expect.stringContaining("offers the model tools") });
    const audio = viewSamplingRequest("s", request({ messages: [{ role: "user", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" } }] }), 1024);
    expect(decideSampling(audio, { model: () => model, canAsk: true })).toMatchObject({ refusal: "unsupported" });
    const plain = viewSamplingRequest("s", request(), 1024);
    expect(decideSampling(plain, { model: noModel, canAsk: true })).toMatchObject({ refusal: "no-model", message: expect.stringContaining("no model can answer it (No LLM is configured") });
    expect(decideSampling(plain, { model: () => model, canAsk: false })).toMatchObject({
      refusal: "no-terminal",
      message: "MCP server s asked the model to write a reply (sampling), but there is no terminal to ask on: declined. Run it on a terminal to confirm each request (--yes never answers sampling).",
    });
  });
});

describe("what the model gets", () => {
  it("text and images for user messages, text for the assistant's", () => {
    expect(
      toModelMessages([
        { role: "user", content: [{ type: "text", text: "Look:" }, { type: "image", data: "iVBO", mimeType: "image/png" }] },
        { role: "assistant", content: { type: "text", text: "A cat." } },
      ]),
    ).toEqual([
      { role: "user", content: [{ type: "text", text: "Look:" }, { type: "image", image: "iVBO", mediaType: "image/png" }] },
      { role: "assistant", content: [{ type: "text", text: "A cat." }] },
    ]);
    expect([stopReasonOf("stop"), stopReasonOf("length"), stopReasonOf("content-filter")]).toEqual(["endTurn", "maxTokens", "content-filter"]);
  });
});
