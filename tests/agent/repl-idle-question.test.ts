import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";
import { ReplDriver } from "./repl-driver.js";

/**
 * A server may ask for input on its own schedule, after the call that started it has returned: the
 * question reaches the REPL while it waits at its own prompt. It is asked there, and the prompt
 * comes back afterwards (the two reads once took the line reader from each other and the REPL
 * stopped reading anything). Real REPL, real stdio server (tests/agent/fixtures/late-question-server.mjs).
 */
const LATE = join(ROOT, "tests", "agent", "fixtures", "late-question-server.mjs");

let home: E2eHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

describe("a server's question while the REPL waits at its prompt", () => {
  it("is asked and answered there, and the REPL then reads its next command", async () => {
    home = await makeHome({ servers: { late: { command: process.execPath, args: [LATE], confirm: "never" } } });
    const repl = new ReplDriver({ ...home.env, PATH: process.env.PATH ?? "" });
    await repl.start();
    await repl.command('/run return require("host:mcp-late").ask_later({})');
    await repl.expect("I will ask you something in a moment.");
    await repl.expect("mcpvm> ");
    await repl.expect("MCP server late asks: Which colour?", 20_000);
    await repl.expect("colour*: ");
    repl.send("blue");
    await repl.expect("Send this to late? [y/N] ");
    repl.send("y");
    await repl.command("/run return 6 * 7");
    await repl.expect("42");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(repl.transcript).not.toContain("Cancelled: late is told you cancelled the form.");
  }, 60_000);
});
