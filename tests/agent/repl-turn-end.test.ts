import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

/**
 * Why a turn ended, when it was not the model's own "done": an answer cut at the output-token limit,
 * stopped by the provider's content filter, or ending on a tool request with no call that could run.
 * Each is said, with what to do; none is blamed on model.maxSteps, which did not stop it.
 */
describe("the end of a turn the model did not finish", () => {
  let llm: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await llm?.close();
    await cleanup?.();
  });

  it("says the answer was cut, filtered, or asked for a tool it never named", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    llm = await startScriptedLlmServer([
      { text: "The three steps are: first, open the", finish: "length" },
      { text: "", finish: "content_filter" },
      // A finish reason of tool_calls with a call the provider cannot read (no name): nothing runs.
      { toolCalls: [{ name: "", arguments: {} }] },
      { text: "done" },
    ]);
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url });
    await repl.start();

    await repl.command("list the steps");
    await repl.expect("first, open the\n(the answer was cut off at the model's output-token limit: send \"go on\" for the rest)");
    await repl.command("something filtered");
    await repl.expect("(the provider's content filter stopped the answer)");
    await repl.command("use a tool");
    await repl.expect("(the model ended its answer asking for a tool, but sent no call that could run: send a message (e.g. \"go on\") to let it try again)");
    await repl.command("last");
    await repl.expect("done");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(repl.transcript).not.toContain("model.maxSteps");
    expect(repl.transcript).not.toContain("the model answered with no text");
  }, 30_000);
});
