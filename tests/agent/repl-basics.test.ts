import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOW_TO_CONFIGURE } from "../../src/agent/llm/model-config.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

describe("the REPL without an LLM", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  async function start(extra: Record<string, string> = {}): Promise<{ repl: ReplDriver; dir: string }> {
    const home = await tempHome();
    cleanup = home.cleanup;
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", ...extra });
    await repl.start();
    return { repl, dir: home.dir };
  }

  it("says how to configure a model, and everything else works: /run, multi-line blocks, /timeout, /help, history, Ctrl-D", async () => {
    const { repl, dir } = await start();
    await repl.expect("No LLM configured");
    await repl.command("what is 2 + 2?");
    await repl.expect("Chat is off");
    expect(repl.transcript).toContain(HOW_TO_CONFIGURE);
    await repl.command("/run return 6 * 7");
    await repl.expect("42");
    await repl.command("/run");
    await repl.expect("end it with /end");
    repl.send("const xs = [1, 2, 3];");
    repl.send('console.log("sum follows");');
    repl.send("return xs.reduce((a, b) => a + b, 0);");
    repl.send("/end");
    await repl.expect("sum follows");
    await repl.expect("6");
    await repl.command("/timeout 5s");
    await repl.expect("wall budget per run: 5s (set with /timeout for this session)");
    await repl.command("/help");
    await repl.expect("/profile …");
    await repl.command("/nonsense");
    await repl.expect("[USAGE] unknown command /nonsense");
    await repl.command("/mcp list");
    await repl.expect("MCP is off");
    await repl.command(" /run return 'not recorded'");
    await repl.expect("not recorded");
    await repl.expect("mcpvm> ");
    repl.stdin.end();
    await repl.expect("bye");
    expect(await repl.finish()).toBe(0);
    const history = await readFile(join(dir, "history"), "utf8");
    expect(history.split("\n")).toEqual(expect.arrayContaining(["what is 2 + 2?", "/run return 6 * 7", "/timeout 5s"]));
    expect(history).not.toContain("not recorded");
  }, 30_000);

  it("has every line in the history file, in the order typed, by the time it returns, /exit included", async () => {
    const { repl, dir } = await start();
    const typed = Array.from({ length: 20 }, (_, i) => `/run return ${i}`);
    await repl.expect("mcpvm> ");
    for (const line of typed) repl.send(line);
    repl.send("/exit");
    expect(await repl.finish()).toBe(0);
    const history = (await readFile(join(dir, "history"), "utf8")).split("\n").filter((l) => l !== "");
    expect(history).toEqual([...typed, "/exit"]);
  }, 30_000);

  it("Ctrl-C cancels the running guest code, not the REPL", async () => {
    const { repl } = await start();
    await repl.command("/run while (true) {}");
    // Let the guest start spinning first.
    await new Promise((r) => setTimeout(r, 300));
    repl.interrupts.interrupt();
    await repl.expect("cancelling");
    await repl.expect("[CANCELLED]");
    await repl.command("/run return 'still here'");
    await repl.expect("still here");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
  }, 30_000);

  it("/profile apply takes effect for the next run without a restart", async () => {
    const { repl, dir } = await start();
    await repl.command("/run return 'x'.repeat(300000).length");
    await repl.expect("300000");
    await repl.command("/profile apply strict");
    await repl.expect("applied strict");
    await repl.command("/run return 'x'.repeat(300000)");
    await repl.expect("[OUTPUT_LIMIT]");
    await repl.command("/timeout");
    await repl.expect("wall budget per run: 10s (from config / profile)");
    await repl.command("/profile list");
    await repl.expect(/strict\s+built-in\s+applied/);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    const config = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as { activeProfiles?: string[] };
    expect(config.activeProfiles).toEqual(["strict"]);
  }, 30_000);

  it("leaves cleanly on end of input even with a config that has a model section", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ model: { provider: "anthropic", model: "claude-x" } }));
    const repl = new ReplDriver({ MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" });
    await repl.start();
    await repl.expect("Chat is off: The anthropic provider needs an API key");
    await repl.expect("ANTHROPIC_API_KEY");
    repl.stdin.end();
    expect(await repl.finish()).toBe(0);
  }, 30_000);
});
