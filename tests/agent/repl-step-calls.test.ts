import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

describe("a step with several tool calls in the REPL", () => {
  let server: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  it("numbers the calls and names, above each result, the call it answers (results end in any order)", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    // The first call ends last: its result follows the second's.
    const slow = `const until = Date.now() + 300; while (Date.now() < until) {} return "from the slow one";`;
    const quick = `return "from the quick one";`;
    server = await startScriptedLlmServer([
      { toolCalls: [{ name: "execute_javascript", arguments: { code: slow } }, { name: "execute_javascript", arguments: { code: quick } }] },
      { text: "both done" },
      { toolCalls: [{ name: "execute_javascript", arguments: { code: `return "alone";` } }] },
      { text: "one done" },
    ]);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url, MCPVM_API_KEY: "sk-test-0123456789" };
    const repl = new ReplDriver(env);
    await repl.start();
    await repl.command("run both");
    await repl.expect("both done", 30_000);
    await repl.command("run one");
    await repl.expect("one done", 30_000);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);

    const transcript = repl.transcript;
    expect(transcript).toContain("⚙ execute_javascript\n");
    expect(transcript).toContain("⚙ #2 execute_javascript\n");
    expect(transcript).toMatch(/↳ result of #1 execute_javascript:\n(?:\s+↳ .*\n)*?\s+↳ .*from the slow one/);
    expect(transcript).toMatch(/↳ result of #2 execute_javascript:\n(?:\s+↳ .*\n)*?\s+↳ .*from the quick one/);
    // A step of one call keeps the plain form.
    const single = transcript.slice(transcript.indexOf("run one"));
    expect(single).not.toContain("result of #");
    expect(single).not.toContain("⚙ #");
    expect(single).toContain("alone");
  }, 90_000);
});
