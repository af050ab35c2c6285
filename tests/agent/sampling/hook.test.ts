import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { resolveModel } from "../../../src/agent/llm/model-config.js";
import { SAMPLING_REJECTED, samplingHook, type SamplingParams, type SamplingPerson } from "../../../src/agent/sampling/index.js";
import type { AuditEvent } from "../../../src/audit-log/index.js";
import type { ServerRequestContext } from "../../../src/mcp/client-manager/index.js";
import { McpvmError } from "../../../src/util/errors.js";
import { failingEndpoint } from "../../fixtures/llm/failing-server.js";
import { startScriptedLlmServer } from "../../fixtures/llm/openai-server.js";

/**
 * The sampling hook's own rules, with the person as a script of answers and the model as the local
 * fake LLM server: what is shown (secrets masked), what the server gets on a no, what is audited.
 */
const params: SamplingParams = { messages: [{ role: "user", content: { type: "text", text: "Use key sk-live-123456 to say hi." } }], maxTokens: 5000 };
const ctx = (signal = new AbortController().signal) => ({ server: "srv", signal, era: "legacy", origin: { origin: undefined, how: "unknown", inFlight: 0 } }) as unknown as ServerRequestContext;

function person(answer: boolean): SamplingPerson & { shown: string[]; told: string[] } {
  const shown: string[] = [];
  const told: string[] = [];
  return {
    canAsk: true,
    shown,
    told,
    confirm: async (details) => {
      shown.push(details);
      return answer;
    },
    tell: (line) => told.push(line),
    progress: (_text, work) => work(),
  };
}

describe("the sampling hook", () => {
  it("masks known secrets in what the person reads; a no reaches the server as MCP's user-rejected error and is audited", async () => {
    const events: AuditEvent[] = [];
    const who = person(false);
    // A local endpoint (OpenAI's own would need a key); the model is never called here.
    const hook = samplingHook({ person: who, model: () => resolveModel({ model: "m", baseUrl: "http://127.0.0.1:9/v1", samplingMaxTokens: 64 }, {}), audit: async (e) => void events.push(e), redact: (t) => t.replaceAll("sk-live-123456", "****") });
    const refused = await hook(params, ctx()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).code).toBe(SAMPLING_REJECTED);
    expect((refused as ProtocolError).message).toContain("declined by the user; nothing was sent to the model");
    expect(who.shown[0]).toContain("Use key **** to say hi.");
    expect(who.shown[0]).not.toContain("sk-live-123456");
    expect(who.shown[0]).toContain("at most 64 tokens out (the server asked for 5000; the cap is 64)");
    expect(events).toEqual([{ event: "mcp.sampling", subject: "srv", decision: "denied", details: { messages: 1, requestedMaxTokens: 5000 } }]);
  });

  it("after a yes, asks the real model endpoint with the bounded token count and returns its reply with the model's name", async () => {
    const llm = await startScriptedLlmServer([{ text: "hi" }]);
    try {
      const events: AuditEvent[] = [];
      const hook = samplingHook({ person: person(true), model: () => resolveModel({ model: "m", baseUrl: llm.url, samplingMaxTokens: 64 }, {}), audit: async (e) => void events.push(e), redact: (t) => t });
      expect(await hook(params, ctx())).toEqual({ role: "assistant", content: { type: "text", text: "hi" }, model: "m", stopReason: "endTurn" });
      expect((llm.requests[0] as { max_tokens?: number }).max_tokens).toBe(64);
      expect(events.map((e) => [e.decision, e.details?.maxTokens])).toEqual([["allowed", 64]]);
    } finally {
      await llm.close();
    }
  });

  it("a server that withdraws its request stops the model's reply", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const hook = samplingHook({
      person: person(true),
      model: () => resolveModel({ model: "m", baseUrl: "http://127.0.0.1:9/v1" }, {}),
      audit: async () => undefined,
      redact: (t) => t,
      sample: async (_model, _params, _max, signal) => {
        seen = signal;
        controller.abort();
        throw signal.reason;
      },
    });
    await expect(hook(params, ctx(controller.signal))).rejects.toThrow("The sampling request was withdrawn.");
    expect(seen?.aborted).toBe(true);
  });

  it("a failing endpoint is LLM_REQUEST_FAILED for the person (model, address, status, next step) and a JSON-RPC error for the server without the address", async () => {
    const endpoint = await failingEndpoint([
      { status: 429, body: { error: { message: "Rate limit reached for sk-live-123456" } } },
      { status: 429, body: { error: { message: "Rate limit reached for sk-live-123456" } } },
    ]);
    try {
      const who = person(true);
      const hook = samplingHook({ person: who, model: () => resolveModel({ model: "m", baseUrl: endpoint.url }, {}), audit: async () => undefined, redact: (t) => t.replaceAll("sk-live-123456", "****") });
      const failed = await hook(params, ctx()).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(ProtocolError);
      const sent = failed as ProtocolError;
      // What the SDK turns into the JSON-RPC error the server receives: code, message, data.
      expect(sent.code).toBe(ProtocolErrorCode.InternalError);
      expect(sent.message).toBe("The client's model (openai-compatible:m) got HTTP 429 from its endpoint, so it cannot answer this sampling request (LLM_REQUEST_FAILED).");
      expect(sent.data).toEqual({ code: "LLM_REQUEST_FAILED", model: "openai-compatible:m", status: 429 });
      expect(JSON.stringify({ message: sent.message, data: sent.data })).not.toContain("127.0.0.1");
      expect(who.told).toEqual([
        `The model could not answer srv's sampling request: [LLM_REQUEST_FAILED] the model openai-compatible:m at ${endpoint.url}/chat/completions answered HTTP 429 (2 attempts): Rate limit reached for ****. The provider is rate-limiting: wait a moment and run the call that asked again. The server was sent an error instead of a reply.`,
      ]);
    } finally {
      await endpoint.close();
    }
  });

  it("an unreachable endpoint, a non-HTTP failure and a failing audit log: the server gets a JSON-RPC error with no stack or client detail", async () => {
    const unreachable = samplingHook({ person: person(true), model: () => resolveModel({ model: "m", baseUrl: "http://127.0.0.1:9/v1" }, {}), audit: async () => undefined, redact: (t) => t });
    await expect(unreachable(params, ctx())).rejects.toMatchObject({
      code: ProtocolErrorCode.InternalError,
      message: "The client's model (openai-compatible:m) could not reach its endpoint, so it cannot answer this sampling request (LLM_REQUEST_FAILED).",
    });
    const who = person(true);
    const broken = samplingHook({
      person: who,
      model: () => resolveModel({ model: "m", baseUrl: "http://127.0.0.1:9/v1" }, {}),
      audit: async () => undefined,
      redact: (t) => t,
      sample: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'text') at /home/me/secret/app.js:1:2");
      },
    });
    const failed = (await broken(params, ctx()).catch((error: unknown) => error)) as ProtocolError;
    expect([failed.code, failed.message, failed.data]).toEqual([
      ProtocolErrorCode.InternalError,
      "The client's model (openai-compatible:m) failed to answer this sampling request; the client's user was told why.",
      { code: "LLM_SAMPLING_FAILED", model: "openai-compatible:m" },
    ]);
    expect(who.told[0]).toContain("Cannot read properties of undefined");
    const unaudited = samplingHook({
      person: person(true),
      model: () => resolveModel({ model: "m", baseUrl: "http://127.0.0.1:9/v1" }, {}),
      audit: async () => {
        throw new McpvmError("AUDIT_LOG_UNWRITABLE", "cannot write /home/me/.mcpvm/audit-log.jsonl", { data: { file: "/home/me/.mcpvm/audit-log.jsonl" } });
      },
      redact: (t) => t,
    });
    const refused = (await unaudited(params, ctx()).catch((error: unknown) => error)) as ProtocolError;
    expect([refused.code, refused.message, refused.data]).toEqual([ProtocolErrorCode.InternalError, "The client failed to answer this sampling request; the client's user was told why.", undefined]);
  });

  it("a 200 whose body is not the protocol (a web page at the address) is LLM_REQUEST_FAILED saying to check the address, not that the provider refused", async () => {
    const endpoint = await failingEndpoint([{ status: 200, body: "Service warming up" }]);
    try {
      const who = person(true);
      const hook = samplingHook({ person: who, model: () => resolveModel({ model: "m", baseUrl: endpoint.url }, {}), audit: async () => undefined, redact: (t) => t });
      const failed = (await hook(params, ctx()).catch((error: unknown) => error)) as ProtocolError;
      expect([failed.code, failed.message]).toEqual([ProtocolErrorCode.InternalError, "The client's model (openai-compatible:m) got HTTP 200 from its endpoint, so it cannot answer this sampling request (LLM_REQUEST_FAILED)."]);
      expect(who.told).toEqual([
        `The model could not answer srv's sampling request: [LLM_REQUEST_FAILED] the model openai-compatible:m at ${endpoint.url}/chat/completions answered HTTP 200: Invalid JSON response. Check that MCPVM_BASE_URL (or config.json model.baseUrl) names the provider's API itself (often ending in /v1), then run the call that asked again. The server was sent an error instead of a reply.`,
      ]);
    } finally {
      await endpoint.close();
    }
  });
});
