import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { MEMORY, ReplDriver, tempHome } from "./repl-driver.js";

/** Approves the mcp plugin and a server-memory writing to `file`, the way a person does at the REPL. */
async function withMemory(repl: ReplDriver, file: string): Promise<void> {
  await repl.command("/plugin approve mcp");
  await repl.expect("[y/N]");
  repl.send("y");
  await repl.command("/plugin enable mcp");
  await repl.command(`/mcp add memory --stdio --env MEMORY_FILE_PATH=${file} -- ${process.execPath} ${MEMORY}`);
  await repl.command("/mcp approve memory");
  await repl.expect("[y/N]");
  repl.send("y");
  await repl.expect("tools available as host:mcp-memory", 60_000);
}

describe("Ctrl-C at a call confirmation while other calls of the same step wait for theirs", () => {
  let server: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  it("cancels the step: the waiting confirmations are not asked, nothing is created, and the REPL reads the next line", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const create = (n: number) => `const m = require("host:mcp-memory"); m.create_entities({ entities: [{ name: "E${n}", entityType: "t", observations: [] }] }); return "made ${n}";`;
    server = await startScriptedLlmServer([
      // Three calls in one step: the SDK runs them at once, so three confirmations queue up.
      { toolCalls: [1, 2, 3].map((n) => ({ name: "execute_javascript", arguments: { code: create(n) } })) },
      { text: "still listening" },
    ]);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url, MCPVM_API_KEY: "sk-test-0123456789" };
    const repl = new ReplDriver(env);
    await repl.start();
    const memoryFile = join(home.dir, "memory.jsonl");
    await withMemory(repl, memoryFile);

    await repl.command("make three entities");
    await repl.expect("Allow this call?", 30_000);
    repl.interrupts.interrupt();
    await repl.expect("cancelled; the conversation is as it was before this message");
    await repl.command("are you there?");
    await repl.expect("still listening", 30_000);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);

    const afterCancel = repl.transcript.slice(repl.transcript.indexOf("cancelled; the conversation"));
    expect(afterCancel).not.toContain("Allow this call?");
    expect(repl.transcript.match(/Allow this call\?/g)).toHaveLength(1);
    const stored = await readFile(memoryFile, "utf8").catch(() => "");
    expect(stored).not.toMatch(/"E\d"/);
    expect(server.requests[1]?.messages.slice(1)).toEqual([{ role: "user", content: "are you there?" }]);

    // Closing the host waits for the cancelled call's decision to reach the audit log: the entry is
    // whole and the log's lock is not left behind for the next process.
    await repl.close();
    const audit = (await readFile(join(home.dir, "audit-log.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { event: string; decision: string });
    // The question asked is the one declined; a call whose question still waited behind it when the
    // step was cancelled (how many got that far depends on timing) is recorded as cancelled, not as a
    // "no" the person never gave.
    const decisions = audit.filter((entry) => entry.event === "mcp.call.confirm").map((entry) => entry.decision);
    expect(decisions[0]).toBe("declined");
    expect(decisions.slice(1).every((decision) => decision === "cancelled")).toBe(true);
    expect(decisions.length).toBeLessThanOrEqual(3);
    await expect(stat(join(home.dir, "audit-log.jsonl.lock"))).rejects.toThrow(/ENOENT/);
  }, 90_000);
});
