import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { SCRIPTED } from "../trust/helpers.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

/**
 * A flow question (one server's data about to go to another's tool) waits on the person while the
 * run's wall budget runs on. When the budget runs out the question is withdrawn: nobody answered, so
 * the audit log says `cancelled`, as it does for a call confirmation withdrawn that way, not `denied`
 * by `person`.
 */
describe("a flow question whose run ends before it is answered", () => {
  let llm: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await llm?.close();
    await cleanup?.();
  });

  it("is audited cancelled (nobody answered), and the late y sends nothing", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const mailCalls = join(home.dir, "mail.calls");
    await writeFile(join(home.dir, "vault.spec.json"), JSON.stringify({ tools: [{ name: "get_key", annotations: { readOnlyHint: true, openWorldHint: false }, result: "KEY-4471" }] }));
    await writeFile(join(home.dir, "mail.spec.json"), JSON.stringify({ tools: [{ name: "send", annotations: { readOnlyHint: false, openWorldHint: true } }] }));
    const forward = `const key = await require("host:mcp-vault").get_key({}); await require("host:mcp-mail").send({ body: String(key) }); return "sent";`;
    llm = await startScriptedLlmServer([
      { toolCalls: [{ name: "execute_javascript", arguments: { code: forward } }] },
      // The model's next step is slow: the turn is still running when the person answers.
      { text: "the run timed out", delayMs: 1_500 },
      { text: "you said y" },
    ]);
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url });
    await repl.start();
    await repl.enableMcp();
    for (const name of ["vault", "mail"]) {
      await repl.command(`/mcp add ${name} --stdio --env MCPVM_FIXTURE_CALLS=${join(home.dir, `${name}.calls`)} -- ${process.execPath} ${SCRIPTED} ${join(home.dir, `${name}.spec.json`)}`);
      await repl.command(`/mcp approve ${name}`);
      await repl.expect("[y/N]");
      repl.send("y");
      await repl.expect(`available as host:mcp-${name}`, 60_000);
    }
    await repl.command("/timeout 4s");

    await repl.command("send the key");
    await repl.expect("Allow this flow for the rest of this run?", 30_000);
    await repl.expect("(question withdrawn: the run that asked has ended", 15_000);
    repl.send("y");
    await repl.expect("WALL_LIMIT");
    await repl.expect("the run timed out", 15_000);
    await repl.expect("you said y", 15_000);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);

    expect(await readFile(mailCalls, "utf8").catch(() => "")).toBe("");
    await repl.close();
    const audit = (await readFile(join(home.dir, "audit-log.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { event: string; decision: string; details?: { by?: string } });
    const flows = audit.filter((entry) => entry.event === "mcp.flow");
    expect(flows.map((entry) => [entry.decision, entry.details?.by])).toEqual([["cancelled", "nobody-answered"]]);
  }, 90_000);
});
