import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TRIMMED_RESULT } from "../../src/agent/llm/context-window.js";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

/**
 * The REPL keeps each request within the model's context window (model.contextWindow): older tool
 * results are left out first, with a note to the person; a request that cannot fit is not sent.
 * Checked on the requests the local fake model server receives.
 */
const big = (word: string) => ({ toolCalls: [{ name: "execute_javascript", arguments: { code: `return "${word} ".repeat(1000);` } }] });
const resultsIn = (request: ChatRequest) => request.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

describe("the model's context window in the REPL", () => {
  let server: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  async function start(script: Parameters<typeof startScriptedLlmServer>[0]): Promise<ReplDriver> {
    const home = await tempHome();
    cleanup = home.cleanup;
    server = await startScriptedLlmServer(script);
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ engine: "quickjs", model: { provider: "openai-compatible", model: "scripted", baseUrl: server.url, contextWindow: 4000 } }));
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" });
    await repl.start();
    return repl;
  }

  it("leaves the oldest tool result out when the next request would pass the window, says so, and the conversation goes on", async () => {
    const repl = await start([big("alpha"), { text: "answer one." }, big("beta"), { text: "answer two." }, big("gamma"), { text: "answer three." }, { text: "answer four." }]);
    await repl.command("first");
    await repl.expect("answer one.", 60_000);
    await repl.command("second");
    await repl.expect("answer two.", 60_000);
    expect(repl.transcript).not.toContain("left out of what the model is sent");
    await repl.command("third");
    await repl.expect("note: an earlier tool result was left out of what the model is sent, to fit its context window (about ", 60_000);
    await repl.expect("of 4,000 tokens; model.contextWindow in config.json). /new starts a new conversation.");
    await repl.expect("answer three.", 60_000);
    const requests = (server as ScriptedLlmServer).requests;
    // The step after gamma's result: alpha's result is out, beta's and gamma's are there.
    const fitted = resultsIn(requests[5] as ChatRequest);
    expect(fitted[0]).toContain(TRIMMED_RESULT);
    expect(fitted[0]).not.toContain("alpha alpha");
    expect(fitted[1]).toContain("beta beta");
    expect(fitted[2]).toContain("gamma gamma");
    // It stays out of later requests, with no second note.
    await repl.command("fourth");
    await repl.expect("answer four.", 60_000);
    expect(resultsIn(requests[6] as ChatRequest)[0]).toContain(TRIMMED_RESULT);
    expect(repl.transcript.split("left out of what the model is sent")).toHaveLength(2);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
  }, 180_000);

  it("a message that cannot fit even without tool results is refused before anything is sent, with what to do", async () => {
    const repl = await start([{ text: "small answer" }]);
    await repl.command(`summarise ${"lorem ipsum dolor sit amet ".repeat(1000)}`);
    await repl.expect("[LLM_CONTEXT_FULL]", 60_000);
    await repl.expect("more than its context window allows (4,000 tokens, a tenth kept for the reply; model.contextWindow in config.json), even with every earlier tool result left out. Nothing was sent. /new starts a new conversation; if the model takes more, raise model.contextWindow.");
    expect((server as ScriptedLlmServer).requests).toHaveLength(0);
    // The conversation is as it was: the next message goes out alone.
    await repl.command("hello");
    await repl.expect("small answer", 60_000);
    expect((server as ScriptedLlmServer).requests[0]?.messages.map((m) => m.role)).toEqual(["system", "user"]);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
  }, 180_000);
});
