import { afterEach, describe, expect, it } from "vitest";
import { MEMORY, ReplDriver, tempHome } from "./repl-driver.js";

/**
 * The REPL runs the CLI's commands as slash commands, but it has no command line to rerun: every
 * hint it prints names what to type in the REPL (`/mcp approve …`), and where nobody could be asked
 * (input piped, no --yes) it says how to get asked, never "rerun with --yes".
 */
describe("hints in the REPL name what to do in the REPL", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it("with --yes: slash commands in the follow-up hints; a launch env needs /mcp approve --accept-launch-env", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" };
    const yes = new ReplDriver(env, { interactive: false, assumeYes: true });
    await yes.start();
    await yes.command("/plugin approve mcp");
    await yes.expect("Enable it with `/plugin enable mcp`.");
    await yes.command("/plugin enable mcp");
    await yes.expect("enabled mcp");
    await yes.command(`/mcp add memory --stdio -- ${process.execPath} ${MEMORY}`);
    await yes.expect("It will not start until you approve it: `/mcp approve memory`.");
    await yes.command(`/mcp add preloaded --stdio --env LD_PRELOAD=/tmp/nothing.so -- ${process.execPath} ${MEMORY}`);
    await yes.command("/mcp approve preloaded");
    await yes.expect("if you expect this, approve it with `/mcp approve preloaded --accept-launch-env`.");
    await yes.command("/mcp list");
    await yes.expect("memory: not approved yet → /mcp approve memory");
    await yes.command("/mcp approve memory");
    await yes.expect("approved memory");
    await yes.command("/exit");
    expect(await yes.finish()).toBe(0);
    expect(yes.transcript).not.toMatch(/rerun|`mcpvm (plugin|mcp) |→ mcpvm /i);

    // Piped input and no --yes: nobody can be asked, and the REPL says how to get asked.
    const piped = new ReplDriver(env, { interactive: false, assumeYes: false });
    await piped.start();
    await piped.command("/plugin approve fetch");
    await piped.expect("Not approved: no terminal to ask on. This REPL's input or output is not a terminal: run `mcpvm plugin approve fetch` in a terminal, or start the REPL as `mcpvm --yes` to approve it unattended.");
    await piped.command("/mcp approve preloaded --accept-launch-env");
    await piped.expect("Not approved: no terminal to ask on; this REPL's input or output is not a terminal: run `mcpvm mcp approve preloaded` in a terminal, or start the REPL as `mcpvm --yes` to approve it unattended.");
    await piped.command('/mcp call memory create_entities entities=[]');
    await piped.expect("Not confirmed: no terminal to ask on. Start the REPL as `mcpvm --yes` (this one's input or output is not a terminal), or set");
    await piped.command("/exit");
    expect(await piped.finish()).toBe(0);
    expect(piped.transcript).not.toMatch(/rerun/i);
  });
});
