import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";
import { ReplDriver } from "./repl-driver.js";

/**
 * config.json changed by another mcpvm (a terminal beside the REPL) while the REPL runs: the REPL's
 * next command sees the change, as docs/PROFILES.md promises ("every face sees the same settings").
 * A server disabled there must not stay callable here.
 */
let home: E2eHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

async function elsewhere(h: E2eHome, argv: string[]): Promise<void> {
  const io = captureIo(h.env, "", h.dir);
  expect(await runCli(argv, io), io.stderrText()).toBe(0);
}

describe("a REPL while another mcpvm changes config.json", () => {
  it("takes a server disabled and a profile applied elsewhere into its next command", async () => {
    home = await makeHome({ servers: (dir) => ({ one: { ...fixtureServer(join(dir, "one.starts")), confirm: "never" } }), approve: ["one"] });
    const repl = new ReplDriver({ ...home.env, PATH: process.env.PATH ?? "" });
    await repl.start();
    await repl.command("/run return require('host:mcp-one').echo({ text: 'before' })");
    await repl.expect("before");
    await repl.command("/timeout");
    await repl.expect("wall budget per run: 30s");

    await elsewhere(home, ["mcp", "disable", "one"]);
    await repl.command("/run return require('host:mcp-one').echo({ text: 'after' })");
    await repl.expect("MCP_SERVER_DISABLED");
    await elsewhere(home, ["profile", "apply", "long-running"]);
    await repl.command("/timeout");
    await repl.expect("wall budget per run: 600s (from config / profile)");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
  }, 60_000);
});
