import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { everythingServer, makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";
import { ReplDriver } from "./repl-driver.js";

/**
 * An MCP server's own requests during a REPL guest call (driven through the REPL's stdin; the real
 * terminal is in repl-server-requests-pty.test.ts): sampling is shown, answered by the REPL's model
 * after a yes and bounded by model.samplingMaxTokens; a no, or no model, declines it; elicitation
 * is asked as a form on the REPL's line reader.
 */
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");
const SAMPLE = '/run return require("host:mcp-full").test_sampling({ prompt: "Name a colour." })';
const ELICIT = '/run return require("host:mcp-full").test_elicitation({ message: "What should we call you?" })';

// Each test starts a REPL, a server and (for sampling) the tokenizer on a loaded machine.
vi.setConfig({ testTimeout: 90_000 });

let home: E2eHome;
let llm: ScriptedLlmServer | undefined;
let repl: ReplDriver | undefined;

beforeEach(async () => {
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL], confirm: "never" }, everything: { ...everythingServer(), confirm: "never" } } });
  const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(home.dir, "config.json"), JSON.stringify({ ...config, model: { samplingMaxTokens: 40 } }, null, 2));
});

afterEach(async () => {
  if (repl !== undefined && !repl.stdin.writableEnded) repl.stdin.end();
  await repl?.finish().catch(() => undefined);
  repl = undefined;
  await llm?.close();
  llm = undefined;
  await home.cleanup();
});

async function auditOf(event: string) {
  const text = await readFile(join(home.dir, "audit-log.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { event: string; subject: string; decision: string; details?: Record<string, unknown> })
    .filter((e) => e.event === event);
}

async function startRepl(withModel: boolean, options: { interactive?: boolean; assumeYes?: boolean } = {}): Promise<ReplDriver> {
  const env = withModel ? { ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: (llm as ScriptedLlmServer).url } : home.env;
  repl = new ReplDriver(env, options);
  await repl.start();
  return repl;
}

describe("sampling in the REPL", () => {
  it("shows the request, and after a yes the REPL's model answers within the configured cap; the reply reaches the server", async () => {
    llm = await startScriptedLlmServer([(request: ChatRequest) => ({ text: request.tools === undefined ? "Teal." : "(tools were sent)" })]);
    const driver = await startRepl(true);
    await driver.command(SAMPLE);
    await driver.expect("MCP server full asks the model to write a reply (sampling).");
    await driver.expect("  user:\n    Name a colour.");
    await driver.expect("at most 40 tokens out (the server asked for 100; the cap is 40)");
    await driver.expect("answered by: openai-compatible:scripted");
    await driver.expect("Send this to openai-compatible:scripted and return its reply to full? [y/N] ");
    driver.send("y");
    await driver.expect("Reply sent to full (5 characters, endTurn):\n    Teal.");
    await driver.expect("LLM response: Teal.");
    const sent = llm.requests[0] as ChatRequest & { max_tokens?: number };
    expect(sent.max_tokens).toBe(40);
    expect(sent.messages).toEqual([{ role: "user", content: "Name a colour." }]);
    expect(await auditOf("mcp.sampling")).toEqual([
      expect.objectContaining({ subject: "full", decision: "allowed", details: expect.objectContaining({ model: "openai-compatible:scripted", maxTokens: 40, requestedMaxTokens: 100, messages: 1 }) }),
    ]);
  });

  it("a no declines it: nothing reaches the model, the guest sees the reason", async () => {
    llm = await startScriptedLlmServer([{ text: "never sent" }]);
    const driver = await startRepl(true);
    await driver.command(SAMPLE);
    await driver.expect("[y/N] ");
    driver.send("n");
    await driver.expect("MCP server full's sampling request was declined by the user; nothing was sent to the model.");
    await driver.expect("MCP_TOOL_REJECTED");
    expect(llm.requests).toHaveLength(0);
    expect((await auditOf("mcp.sampling")).map((e) => e.decision)).toEqual(["denied"]);
  });

  it("with no model configured: declined without asking, with how to configure one", async () => {
    const driver = await startRepl(false);
    await driver.command(SAMPLE);
    await driver.expect("MCP server full asked the model to write a reply (sampling), but no model can answer it (No LLM is configured.");
    await driver.expect("MCP_TOOL_REJECTED");
    expect(driver.transcript).not.toContain("[y/N]");
    expect((await auditOf("mcp.sampling")).map((e) => e.decision)).toEqual(["no-model"]);
  });
});

describe("elicitation in the REPL", () => {
  it("asks the form on the REPL's line reader; the answer reaches the server and the REPL prompt comes back", async () => {
    const driver = await startRepl(false);
    await driver.command(ELICIT);
    await driver.expect("MCP server full asks: What should we call you?");
    await driver.expect("response: ");
    driver.send("Ada");
    await driver.expect("Send this to full? [y/N] ");
    driver.send("y");
    await driver.expect('User response: action=accept, content={"response":"Ada"}');
    await driver.command(ELICIT);
    await driver.expect("response: ");
    driver.send("");
    await driver.expect("Send this to full? [y/N] ");
    driver.send("");
    await driver.expect("Not sent: full is told you declined.");
    await driver.expect("User response: action=decline");
    await driver.expect("mcpvm> ");
    expect((await auditOf("mcp.elicitation")).map((e) => [e.subject, e.decision, e.details])).toEqual([
      ["full", "accept", { mode: "form", fields: 1 }],
      ["full", "decline", { mode: "form", fields: 1 }],
    ]);
  });
});

describe("sampling when the model fails", () => {
  it("tells the person and the server why, and the REPL carries on", async () => {
    llm = await startScriptedLlmServer([]);
    const driver = await startRepl(true);
    await driver.command(SAMPLE);
    await driver.expect("[y/N] ");
    driver.send("y");
    // The person reads the chat's typed error; the server gets a JSON-RPC error without the address.
    await driver.expect(`The model could not answer full's sampling request: [LLM_REQUEST_FAILED] the model openai-compatible:scripted at ${llm.url}/chat/completions answered HTTP 500 (2 attempts): the script has no more turns. The provider failed: run the call that asked again, or later.`);
    await driver.expect("MCP_TOOL_REJECTED");
    await driver.expect("The client's model (openai-compatible:scripted) got HTTP 500 from its endpoint, so it cannot answer this sampling request (LLM_REQUEST_FAILED).");
    await driver.expect("mcpvm> ");
    // A server error is retried once (answer.ts: maxRetries 1), then given up.
    expect(llm.requests).toHaveLength(2);
  });
});

describe("sampling for a server we did not write", () => {
  it("server-everything's trigger-sampling-request: its system prompt and temperature are shown and sent; the reply reaches it", async () => {
    llm = await startScriptedLlmServer([{ text: "Sure." }]);
    const driver = await startRepl(true);
    await driver.command('/run return require("host:mcp-everything").trigger_sampling_request({ prompt: "Say sure.", maxTokens: 20 })');
    await driver.expect("MCP server everything asks the model to write a reply (sampling).");
    await driver.expect("  system prompt:\n    You are a helpful test server.");
    await driver.expect("Resource trigger-sampling-request context: Say sure.");
    await driver.expect("at most 20 tokens out");
    await driver.expect("settings: temperature 0.7");
    await driver.expect("[y/N] ");
    driver.send("y");
    await driver.expect("LLM sampling result:");
    await driver.expect('"text": "Sure."');
    const sent = llm.requests[0] as ChatRequest & { max_tokens?: number; temperature?: number };
    expect([sent.max_tokens, sent.temperature]).toEqual([20, 0.7]);
    expect(sent.messages[0]).toEqual({ role: "system", content: "You are a helpful test server." });
  });
});

describe("the REPL with nobody at a terminal (--yes, input piped)", () => {
  it("declines sampling and forms with the reason; --yes answers neither", async () => {
    llm = await startScriptedLlmServer([{ text: "never sent" }]);
    const driver = await startRepl(true, { interactive: false, assumeYes: true });
    await driver.command(SAMPLE);
    await driver.expect("but there is no terminal to ask on: declined.");
    await driver.command(ELICIT);
    await driver.expect('MCP server full asked for input ("What should we call you?") but there is no terminal to ask on: declined.');
    await driver.expect("User response: action=decline");
    expect(llm.requests).toHaveLength(0);
    expect(driver.transcript).not.toContain("[y/N]");
    expect((await auditOf("mcp.sampling")).map((e) => e.decision)).toEqual(["no-terminal"]);
    expect((await auditOf("mcp.elicitation")).map((e) => e.decision)).toEqual(["decline"]);
  });
});

describe("a question whose step ends before it is answered", () => {
  it("is withdrawn when the run's wall budget runs out: the REPL prompt comes back and later questions are still asked", async () => {
    llm = await startScriptedLlmServer([{ text: "never sent" }]);
    const driver = await startRepl(true);
    // The server is started first, so the short budget is spent waiting for the person, not on a start.
    await driver.command('/run return require("host:mcp-full").test_simple_text({})');
    await driver.expect("This is a simple text response for testing.");
    await driver.command("/timeout 3s");
    await driver.command(SAMPLE);
    await driver.expect("[y/N] ");
    await driver.expect("(question withdrawn:");
    await driver.expect("mcpvm> ");
    driver.send("/run return 6 * 7");
    await driver.expect("42");
    await driver.command("/timeout default");
    await driver.command(ELICIT);
    await driver.expect("response: ");
    driver.send("Grace");
    await driver.expect("Send this to full? [y/N] ");
    driver.send("y");
    await driver.expect('User response: action=accept, content={"response":"Grace"}');
    expect(llm.requests).toHaveLength(0);
  });
});
