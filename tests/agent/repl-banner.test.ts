import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";
import { ReplDriver } from "./repl-driver.js";

/**
 * The REPL banner gives the same diagnosis as `mcpvm doctor`: a typo in mcpServers is named as the
 * cause of "MCP: off" (it used to say "enable it with /plugin approve mcp" although the plugin was
 * approved and enabled), and servers that cannot start are listed with what to run.
 */

let home: E2eHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

async function banner(h: E2eHome): Promise<{ repl: ReplDriver; text: string }> {
  const repl = new ReplDriver({ ...h.env, PATH: process.env.PATH ?? "" });
  await repl.start();
  const text = await repl.expect("mcpvm> ");
  return { repl, text };
}

async function leave(repl: ReplDriver): Promise<void> {
  repl.stdin.end();
  await repl.expect("bye");
  expect(await repl.finish()).toBe(0);
}

describe("the REPL banner", () => {
  it("an LLM setting that cannot work is named as such, not 'No LLM configured'", async () => {
    home = await makeHome({ servers: (dir) => ({ good: fixtureServer(join(dir, "good.starts")) }) });
    const { repl, text } = await banner({ ...home, env: { ...home.env, MCPVM_MODEL: "opnai:gpt-4o-mini" } });
    expect(text).toContain('Chat is off: MCPVM_MODEL="opnai:gpt-4o-mini": unknown provider "opnai"; did you mean "openai"?');
    expect(text).not.toContain("No LLM configured");
    await leave(repl);
  });

  it("a typo in mcpServers: MCP is off because of it, with the key named, not 'approve the plugin'", async () => {
    home = await makeHome({ servers: (dir) => ({ good: fixtureServer(join(dir, "good.starts")) }) });
    const file = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(file, "utf8")) as { mcpServers: Record<string, unknown> };
    config.mcpServers.typo = { comand: "node" };
    await writeFile(file, JSON.stringify(config));
    const { repl, text } = await banner(home);
    expect(text).toContain("MCP: off, because mcpServers in config.json is not valid");
    expect(text).toContain('✗ mcpServers.typo: Unrecognized key: "comand"; did you mean "command"?');
    expect(text).toContain(`→ fix it in ${file}`);
    expect(text).not.toContain("/plugin approve mcp");
    await leave(repl);
  });

  it("MCP on: the enabled servers, and the one that cannot start with the command that fixes it", async () => {
    home = await makeHome({ servers: (dir) => ({ good: fixtureServer(join(dir, "good.starts")), pending: fixtureServer(join(dir, "pending.starts")) }), approve: ["good"] });
    const { repl, text } = await banner(home);
    expect(text).toContain("MCP: on; servers enabled: good, pending");
    expect(text).toContain("✗ pending is not approved, so it never starts → mcpvm mcp approve pending");
    await leave(repl);
  });

  it("a problem whose message does not name its server is shown with the server's name", async () => {
    // "✗ command "…" is not found on PATH" said nothing of which server it was about.
    home = await makeHome({ servers: (dir) => ({ good: fixtureServer(join(dir, "good.starts")), lost: { command: "mcpvm-no-such-command" } }), approve: ["good"] });
    const { repl, text } = await banner(home);
    expect(text).toContain('✗ server lost: command "mcpvm-no-such-command" is not found on PATH');
    expect(text).toContain("✗ lost is not approved, so it never starts → mcpvm mcp approve lost");
    await leave(repl);
  });
});

