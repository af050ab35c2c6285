import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

/** The model's own API key is a secret like a server's: masked in what the REPL shows from the first message. */
describe("the model's API key in the REPL's output", () => {
  let server: ScriptedLlmServer | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await server?.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("is masked when the model repeats it, before any /save", async () => {
    const home = await tempHome();
    cleanups.push(home.cleanup);
    const secret = "sk-test-masked-0123456789";
    server = await startScriptedLlmServer([{ text: `Your key is ${secret}, right?` }]);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url, MCPVM_API_KEY: secret };
    const repl = new ReplDriver(env);
    await repl.start();
    await repl.command("what is my key?");
    await repl.expect("right?", 60_000);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(repl.transcript).toContain("Your key is ");
    expect(repl.transcript).not.toContain(secret);
  }, 120_000);
});
