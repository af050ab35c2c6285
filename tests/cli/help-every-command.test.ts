import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMAND_ENTRIES } from "../../src/cli/commands/index.js";
import { COMMANDS } from "../../src/cli/completion/spec.js";
import { cli, type E2eHome } from "../e2e/helpers.js";

/**
 * Walks the command table the dispatcher uses, so a command added later cannot be left out of
 * `mcpvm --help` (as `mcpvm repl` was) or lack a working `--help`: every command is listed with
 * its one-line summary, and `mcpvm <command> --help`, `mcpvm help <command>` and each subcommand's
 * `--help` print a page and exit 0. No command runs: help never opens the home.
 */
const dir = mkdtempSync(join(tmpdir(), "mcpvm-help-"));
const home = { dir, env: { MCPVM_HOME: join(dir, "home"), HOME: dir, PATH: process.env.PATH ?? "" } } as unknown as E2eHome;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("every command the CLI dispatches has help", () => {
  it("`mcpvm --help` lists each command with its summary", async () => {
    const out = await cli(home, ["--help"]);
    expect(out.code).toBe(0);
    for (const entry of COMMAND_ENTRIES) expect(out.stdout, entry.name).toContain(`  ${entry.name.padEnd(10)} ${entry.summary}\n`);
    // `mcpvm help` is the same page.
    expect((await cli(home, ["help"])).stdout).toBe(out.stdout);
  });

  for (const entry of COMMAND_ENTRIES) {
    it(`mcpvm ${entry.name} --help and mcpvm help ${entry.name} print its page, exit 0`, async () => {
      const command = await entry.load();
      const flag = await cli(home, [entry.name, "--help"]);
      expect(flag.code).toBe(0);
      expect(flag.stdout.trim()).toBe(command.usage.trim());
      expect(flag.stdout).toMatch(/Usage: /);
      const viaHelp = await cli(home, ["help", entry.name]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(flag.stdout);
      for (const sub of Object.keys(COMMANDS[entry.name]?.subcommands ?? {})) {
        const page = await cli(home, [entry.name, sub, "--help"]);
        expect(page.code, `${entry.name} ${sub} --help`).toBe(0);
        expect(page.stdout, `${entry.name} ${sub} --help`).toContain(sub);
        expect(page.stderr, `${entry.name} ${sub} --help`).toBe("");
      }
    });
  }
});
