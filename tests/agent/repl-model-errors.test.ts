import { afterEach, describe, expect, it } from "vitest";
import { failingEndpoint } from "../fixtures/llm/failing-server.js";
import { startScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

describe("the REPL when the model's endpoint fails", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(baseUrl: string): Promise<ReplDriver> {
    const home = await tempHome();
    cleanups.push(home.cleanup);
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:fake-model", MCPVM_BASE_URL: baseUrl });
    await repl.start();
    return repl;
  }

  it("names the model, the endpoint, the status and what to do next, and the conversation goes on", async () => {
    const tooLong = { error: { message: "This model's maximum context length is 8192 tokens.", type: "invalid_request_error", code: "context_length_exceeded" } };
    const endpoint = await failingEndpoint([
      { status: 400, body: tooLong },
      { status: 401, body: { error: { message: "Incorrect API key provided" } } },
      { status: 429, body: { error: { message: "Rate limit reached" } } },
      { status: 429, body: { error: { message: "Rate limit reached" } } },
      { status: 429, body: { error: { message: "Rate limit reached" } } },
    ]);
    cleanups.push(endpoint.close);
    const repl = await start(endpoint.url);
    const where = `the model openai-compatible:fake-model at ${endpoint.url}/chat/completions`;

    await repl.command("a long conversation");
    await repl.expect(`error [LLM_REQUEST_FAILED] ${where} answered HTTP 400: This model's maximum context length is 8192 tokens. The conversation no longer fits the model's context: /new starts a new one, and lower model.contextWindow in config.json to the model's real window so older tool results are left out in time.`);
    await repl.command("again");
    await repl.expect(`${where} answered HTTP 401: Incorrect API key provided. Check the key in MCPVM_API_KEY or OPENAI_API_KEY.`);
    await repl.command("once more");
    await repl.expect(`${where} answered HTTP 429 (3 attempts): Rate limit reached. The provider is rate-limiting: wait a moment and send the message again.`);
    expect(endpoint.requests()).toBe(5);
    repl.stdin.end();
    expect(await repl.finish()).toBe(0);
  }, 30_000);

  it("says which endpoint could not be reached and how to point at the right one", async () => {
    // A port that was listening a moment ago and is closed now: nothing answers there.
    const gone = await failingEndpoint([]);
    await gone.close();
    const repl = await start(gone.url);
    await repl.command("hello");
    await repl.expect(/error \[LLM_REQUEST_FAILED\] the model openai-compatible:fake-model could not be reached at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(3 attempts\): .+\. Check that the server is running and that MCPVM_BASE_URL/, 25_000);
    await repl.expect("The conversation is as it was before this message.");
    repl.stdin.end();
    expect(await repl.finish()).toBe(0);
  }, 30_000);

  it("an answer that breaks off mid-stream names the model, what broke and what to do, and the conversation is as before", async () => {
    const llm = await startScriptedLlmServer([
      { text: "hello", breakOff: { error: { message: "Overloaded", type: "server_error" } } },
      { text: "half an", breakOff: "no-finish" },
      { text: "garbled", breakOff: "bad-chunk" },
      { text: "all good" },
    ]);
    cleanups.push(llm.close);
    const repl = await start(llm.url);
    const where = `the model openai-compatible:fake-model at ${llm.url}`;
    const keep = "The conversation is as it was before this message.";

    await repl.command("first");
    await repl.expect(`error [LLM_REQUEST_FAILED] ${where} broke off its answer with an error: Overloaded (server_error). The provider failed mid-answer: send the message again, or later. ${keep}`);
    await repl.command("second");
    await repl.expect(`error [LLM_REQUEST_FAILED] ${where} broke off its answer: the stream ended without a finish reason (the connection was cut, or the address is not the provider's API). The provider failed mid-answer: send the message again, or later. ${keep}`);
    await repl.command("third");
    await repl.expect(`error [LLM_REQUEST_FAILED] ${where} broke off its answer: it sent a chunk that is not valid JSON. The provider failed mid-answer: send the message again, or later. ${keep}`);
    await repl.command("fourth");
    await repl.expect("all good");
    // None of the broken answers joined the conversation.
    expect(llm.requests[3]?.messages.slice(1)).toEqual([{ role: "user", content: "fourth" }]);
    repl.stdin.end();
    expect(await repl.finish()).toBe(0);
  }, 30_000);
});
