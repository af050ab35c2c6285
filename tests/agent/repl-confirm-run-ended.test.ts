import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { MEMORY, ReplDriver, tempHome } from "./repl-driver.js";

/**
 * A run's wall budget keeps running while the person reads a call confirmation. When it runs out,
 * the question goes with the run (docs/MCP.md: "nothing typed afterwards is taken as its answer"),
 * even though the model's turn goes on; a late "y" neither makes the call nor is audited as allowed.
 */
describe("a call confirmation whose run ends before it is answered", () => {
  let llm: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await llm?.close();
    await cleanup?.();
  });

  it("is withdrawn when the run's budget runs out, not when the turn ends; the late y is a message, the audit says cancelled", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const memoryFile = join(home.dir, "memory.jsonl");
    const create = `const m = require("host:mcp-memory"); m.create_entities({ entities: [{ name: "Late", entityType: "t", observations: [] }] }); return "made";`;
    llm = await startScriptedLlmServer([
      { toolCalls: [{ name: "execute_javascript", arguments: { code: create } }] },
      // The model's next step is slow: the turn is still running when the person answers.
      { text: "the call timed out", delayMs: 1_500 },
      { text: "you said y" },
    ]);
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url });
    await repl.start();
    await repl.command("/plugin approve mcp");
    await repl.expect("[y/N]");
    repl.send("y");
    await repl.command("/plugin enable mcp");
    await repl.command(`/mcp add memory --stdio --env MEMORY_FILE_PATH=${memoryFile} -- ${process.execPath} ${MEMORY}`);
    await repl.command("/mcp approve memory");
    await repl.expect("[y/N]");
    repl.send("y");
    await repl.expect("tools available as host:mcp-memory", 60_000);
    // Long enough for the server to start inside the run, short enough not to wait on the person.
    await repl.command("/timeout 4s");

    await repl.command("make one");
    await repl.expect("Allow this call?", 30_000);
    await repl.expect("(question withdrawn: the run that asked has ended (its time budget ran out, or it was cancelled))", 15_000);
    repl.send("y");
    await repl.expect("WALL_LIMIT");
    await repl.expect("the call timed out", 15_000);
    await repl.expect("you said y", 15_000);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);

    expect(llm.requests[2]?.messages.at(-1)).toEqual({ role: "user", content: "y" });
    expect(await readFile(memoryFile, "utf8").catch(() => "")).not.toContain("Late");
    await repl.close();
    const audit = (await readFile(join(home.dir, "audit-log.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { event: string; decision: string });
    expect(audit.filter((entry) => entry.event === "mcp.call.confirm").map((entry) => entry.decision)).toEqual(["cancelled"]);
  }, 90_000);
});
