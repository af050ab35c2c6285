import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

describe("a session setting given a bad value is refused, and the one before stays", () => {
  let server: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  async function start(): Promise<ReplDriver> {
    const home = await tempHome();
    cleanup = home.cleanup;
    server = await startScriptedLlmServer([{ text: "the model still answers" }]);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url };
    const repl = new ReplDriver(env);
    await repl.start();
    return repl;
  }

  it("/timeout over the sandbox's bound is refused in the command's units; runs keep the budget set before", async () => {
    const repl = await start();
    await repl.command("/timeout 5s");
    await repl.expect("wall budget per run: 5s");
    await repl.command("/timeout 25h");
    await repl.expect("/timeout must be between 1ms and 24h (got 25h)");
    await repl.command("/run return 6 * 7");
    await repl.expect("42");
    await repl.command("/timeout");
    await repl.expect("wall budget per run: 5s (set with /timeout for this session)");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(repl.transcript).not.toContain("INVALID_LIMITS");
  }, 30_000);

  it("/model with a spec that does not resolve is refused; the session keeps talking to the model it had", async () => {
    const repl = await start();
    for (const spec of ["openai:", "foo:bar"]) {
      await repl.command(`/model ${spec}`);
      await repl.expect("the session keeps openai-compatible:scripted");
    }
    await repl.command("/model");
    await repl.expect("model: openai-compatible:scripted at");
    await repl.command("are you there?");
    await repl.expect("the model still answers");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(server?.requests.map((r) => r.model)).toEqual(["scripted"]);
  }, 30_000);
});
