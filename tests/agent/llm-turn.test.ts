import { jsonSchema, tool } from "ai";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { HOW_TO_CONFIGURE, LlmConfigError, resolveModel } from "../../src/agent/llm/model-config.js";
import { createLanguageModel } from "../../src/agent/llm/provider.js";
import { describeToolError } from "../../src/agent/llm/tool-error.js";
import { runTurn } from "../../src/agent/llm/turn.js";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";

describe("resolveModel", () => {
  it("reads provider:model from MCPVM_MODEL and the key from the provider's variable", () => {
    const r = resolveModel(undefined, { MCPVM_MODEL: "anthropic:claude-x", ANTHROPIC_API_KEY: "k-123456" });
    expect(r).toMatchObject({ provider: "anthropic", model: "claude-x", apiKey: "k-123456", apiKeySource: "ANTHROPIC_API_KEY" });
  });

  it("treats openai: as openai-compatible and honours MCPVM_BASE_URL", () => {
    const r = resolveModel({ model: "ignored" }, { MCPVM_MODEL: "openai:gpt-x", MCPVM_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(r).toMatchObject({ provider: "openai-compatible", model: "gpt-x", baseUrl: "http://127.0.0.1:11434/v1", apiKey: undefined });
  });

  it("OpenAI's own endpoint without a key is a missing key, said before any request (a local server needs none)", () => {
    expect(() => resolveModel(undefined, { MCPVM_MODEL: "openai:gpt-4o-mini" })).toThrow(
      expect.objectContaining({
        code: "LLM_KEY_MISSING",
        message: "The openai-compatible provider at https://api.openai.com/v1 needs an API key: set MCPVM_API_KEY or OPENAI_API_KEY (a local server such as Ollama needs none: point MCPVM_BASE_URL at it).",
      }),
    );
    expect(resolveModel(undefined, { MCPVM_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-123456" })).toMatchObject({ apiKeySource: "OPENAI_API_KEY" });
    expect(resolveModel(undefined, { MCPVM_MODEL: "openai:llama3.1", MCPVM_BASE_URL: "http://127.0.0.1:11434/v1" })).toMatchObject({ apiKey: undefined });
  });

  it("says how to configure a model when none is", () => {
    const error = (() => {
      try {
        resolveModel(undefined, {});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LlmConfigError);
    expect((error as LlmConfigError).code).toBe("LLM_NOT_CONFIGURED");
    expect((error as Error).message).toContain(HOW_TO_CONFIGURE);
  });
});

describe("runTurn against an OpenAI-protocol server on 127.0.0.1", () => {
  let server: ScriptedLlmServer | undefined;
  afterEach(async () => server?.close());

  it("streams text, runs the tool the model calls, feeds the result back, and counts tokens", async () => {
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] },
      (request) => {
        const toolMessage = request.messages.find((m) => m.role === "tool");
        return { text: `The tool said ${JSON.stringify(toolMessage?.content)}.` };
      },
    ]);
    const model = createLanguageModel(resolveModel(undefined, { MCPVM_MODEL: "openai-compatible:test-model", MCPVM_BASE_URL: server.url, MCPVM_API_KEY: "key-abcdef" }));
    const calls: unknown[] = [];
    let streamed = "";
    const result = await runTurn({
      model,
      system: "You are a test.",
      history: [],
      userMessage: "add 2 and 3",
      maxSteps: 4,
      tools: {
        add: tool({
          description: "Add two numbers",
          inputSchema: jsonSchema<{ a: number; b: number }>({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }),
          execute: async ({ a, b }) => ({ sum: a + b }),
        }),
      },
      onToolCall: (name, input) => calls.push({ name, input }),
      onTextDelta: (t) => (streamed += t),
    });
    expect(calls).toEqual([{ name: "add", input: { a: 2, b: 3 } }]);
    expect(result.text).toBe(streamed);
    expect(result.text).toContain("sum");
    expect(result.text).toContain("5");
    expect(result.steps).toBe(2);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(server.requests[0]?.tools?.map((t) => t.function.name)).toEqual(["add"]);
    expect(server.requests[0]?.messages[0]).toMatchObject({ role: "system", content: "You are a test." });
    expect(server.authorizations[0]).toBe("Bearer key-abcdef");
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("reports calls that got no result: input the SDK refused, and a tool that threw; the model is told both", async () => {
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: "pick", arguments: { colour: "purple" } }, { name: "boom", arguments: {} }] },
      { text: "ok" },
    ]);
    const model = createLanguageModel(resolveModel(undefined, { MCPVM_MODEL: "openai-compatible:test-model", MCPVM_BASE_URL: server.url }));
    const errors: Array<{ name: string; text: string }> = [];
    const results: string[] = [];
    await runTurn({
      model,
      system: "s",
      history: [],
      userMessage: "go",
      maxSteps: 3,
      tools: {
        pick: tool({ description: "Pick a colour", inputSchema: z.object({ colour: z.enum(["red", "green"]) }), execute: async ({ colour }) => colour }),
        boom: tool({
          description: "Fails",
          inputSchema: z.object({}),
          execute: async (): Promise<string> => {
            throw new Error("the disk is on fire");
          },
        }),
      },
      onToolResult: (name) => results.push(name),
      onToolError: (name, error) => errors.push({ name, text: describeToolError(error) }),
    });
    expect(results).toEqual([]);
    expect(errors).toEqual(
      expect.arrayContaining([
        { name: "pick", text: 'invalid input for pick: colour: Invalid option: expected one of "red"|"green"' },
        { name: "boom", text: "the disk is on fire" },
      ]),
    );
    const told = server.requests[1]?.messages.filter((m) => m.role === "tool").map((m) => String(m.content)) ?? [];
    expect(told.some((t) => t.includes("Invalid input for tool pick"))).toBe(true);
    expect(told.some((t) => t.includes("the disk is on fire"))).toBe(true);
  });
});
