import { afterEach, describe, expect, it } from "vitest";
import { ReplDriver, tempHome } from "./repl-driver.js";

/**
 * Ctrl-C while a slash command waits on a server. Slash commands used to run outside any step, so
 * the REPL ignored Ctrl-C there: a server that never finished its handshake held the prompt until
 * the connect timeout, and a slow `/mcp call` until its call timeout.
 */
describe("Ctrl-C during a slash command", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
  });

  it("cancels /mcp approve's first connection to a server that never answers, and the REPL goes on", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" };
    const repl = new ReplDriver(env);
    await repl.start();
    await repl.enableMcp();

    await repl.command(`/mcp add hang --connect-timeout 60s --stdio -- ${process.execPath} -e "setInterval(() => {}, 1000)"`);
    await repl.expect("added hang");
    await repl.command("/mcp approve hang");
    await repl.expect(/Approve[^\n]*hang/);
    repl.send("y");
    // The launch is approved; the first connection now waits on a handshake that never comes.
    await new Promise((r) => setTimeout(r, 1_000));
    repl.interrupts.interrupt();
    await repl.expect("^C cancelling", 10_000);
    // Without the step the REPL ignored the Ctrl-C: the prompt came back only with the connect timeout's error, 60 s later.
    await repl.expect("interrupted while connecting to hang", 10_000);

    // The prompt is back and takes commands at once.
    await repl.command("/mcp list");
    await repl.expect(/hang\s+stdio/, 10_000);
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
  }, 90_000);
});
