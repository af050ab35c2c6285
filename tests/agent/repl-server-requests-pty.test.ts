import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";
import { hasScript, PtySession } from "../support/pty.js";

/**
 * The REPL on a real pseudo-terminal, a person typing: the model runs guest code whose MCP call
 * makes the server ask for sampling (shown, confirmed, answered by the same model) and for a form
 * (asked on the REPL's own line editor; Ctrl-C cancels only the form). Each answer reaches the
 * server, and the tool's result reaches the model.
 */
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");
const call = (expression: string) => ({ toolCalls: [{ name: "execute_javascript", arguments: { code: `return require("host:mcp-full").${expression};` } }] });
const toolOutput = (request: ChatRequest) => String([...request.messages].reverse().find((m) => m.role === "tool")?.content ?? "(no tool output)");
const echo = (request: ChatRequest) => ({ text: `Model saw: ${toolOutput(request)}` });

let home: E2eHome;
let llm: ScriptedLlmServer;

beforeAll(async () => {
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL], confirm: "never" } } });
  llm = await startScriptedLlmServer([
    call('test_sampling({ prompt: "Name a colour." })'),
    // The server's sampling request, sent by the REPL with no tools.
    (request) => ({ text: request.tools === undefined ? "Teal." : "(tools were offered to a sampling request)" }),
    echo,
    call('test_elicitation({ message: "What should we call you?" })'),
    echo,
    call('test_elicitation({ message: "What should we call you?" })'),
    echo,
  ]);
});

afterAll(async () => {
  await llm?.close();
  await home?.cleanup();
});

describe.skipIf(!hasScript)("the REPL on a terminal answers an MCP server's sampling and elicitation", () => {
  it("sampling after a yes, a form answered, a form cancelled with Ctrl-C; the REPL keeps its prompt", async () => {
    const pty = new PtySession([], { ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url });
    try {
      await pty.expect("model: openai-compatible:scripted");
      await pty.expect("mcpvm> ");
      pty.type("Ask the server for a colour.\r");
      await pty.expect("MCP server full asks the model to write a reply (sampling).");
      await pty.expect("  user:\n    Name a colour.");
      await pty.expect("size: 14 characters in, at most 100 tokens out");
      await pty.expect("Send this to openai-compatible:scripted and return its reply to full? [y/N] ");
      pty.type("y\r");
      await pty.expect("Reply sent to full (5 characters, endTurn):\n    Teal.");
      await pty.expect('Model saw: {"result":"LLM response: Teal."');

      await pty.expect("mcpvm> ");
      pty.type("Ask me my name.\r");
      await pty.expect("MCP server full asks: What should we call you?");
      await pty.expect("response: ");
      pty.type("Ada\r");
      await pty.expect("Send this to full? [y/N] ");
      pty.type("y\r");
      await pty.expect('Model saw: {"result":"User response: action=accept, content={\\"response\\":\\"Ada\\"}"');

      await pty.expect("mcpvm> ");
      pty.type("Ask me again.\r");
      await pty.expect("response: ");
      pty.type("\u0003");
      await pty.expect("Cancelled: full is told you cancelled the form.");
      await pty.expect('Model saw: {"result":"User response: action=cancel');

      await pty.expect("mcpvm> ");
      pty.type("/exit\r");
      await pty.expect("bye");
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
    const sampling = llm.requests[1] as ChatRequest & { max_tokens?: number };
    expect(sampling.tools).toBeUndefined();
    expect(sampling.max_tokens).toBe(100);
    expect(sampling.messages).toEqual([{ role: "user", content: "Name a colour." }]);
    const audit = (await readFile(join(home.dir, "audit-log.jsonl"), "utf8"))
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { event: string; decision: string; face: string });
    expect(audit.filter((e) => e.event === "mcp.sampling" || e.event === "mcp.elicitation").map((e) => [e.event, e.decision, e.face])).toEqual([
      ["mcp.sampling", "allowed", "repl"],
      ["mcp.elicitation", "accept", "repl"],
      ["mcp.elicitation", "cancel", "repl"],
    ]);
  }, 240_000);
});
