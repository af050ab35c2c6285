import { ProtocolError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { resolveModel } from "../../../src/agent/llm/model-config.js";
import { SAMPLING_REJECTED, samplingHook, type SamplingParams, type SamplingPerson } from "../../../src/agent/sampling/index.js";
import type { AuditEvent } from "../../../src/audit-log/index.js";
import type { ServerRequestContext } from "../../../src/mcp/client-manager/index.js";
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
    await expect(hook(params, ctx(controller.signal))).rejects.toThrow(/could not answer srv's sampling request/);
    expect(seen?.aborted).toBe(true);
  });
});
