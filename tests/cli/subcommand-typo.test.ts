import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-typo-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function cli(args: readonly string[]) {
  const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH }, "", home);
  const code = await runCli(args, io);
  return { code, stderr: io.stderrText() };
}

/**
 * `mcpvm mcp cal fx echo` used to answer `unexpected argument "echo"`: the count of words was checked
 * before the command word, so the typo that matters (cal) was never named.
 */
describe("a mistyped subcommand followed by its arguments is named, with a did-you-mean", () => {
  const cases: readonly [readonly string[], string][] = [
    [["mcp", "cal", "fx", "echo"], 'mcpvm mcp: unknown command "cal"; did you mean "call"?'],
    [["mcp", "aprove", "fx", "extra"], 'mcpvm mcp: unknown command "aprove"; did you mean "approve"?'],
    // With options of the subcommand meant, which the others do not take: named before "unknown option".
    [["mcp", "ad", "fx", "-e", "A=1", "--", "echo", "hi"], 'mcpvm mcp: unknown command "ad"; did you mean "add"?'],
    [["mcp", "cal", "fx", "echo", "--timeout", "5s"], 'mcpvm mcp: unknown command "cal"; did you mean "call"?'],
    [["plugin", "aprove", "mcp", "extra"], 'mcpvm plugin: unknown command "aprove"; did you mean "approve"?'],
    [["audit", "lgo", "extra"], 'mcpvm audit: unknown command "lgo"; did you mean "log"?'],
  ];
  for (const [args, message] of cases) {
    it(args.join(" "), async () => {
      const result = await cli(args);
      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toContain(message);
    });
  }

  it("too many words after a real subcommand are still refused (exit 2)", async () => {
    for (const [args, extra] of [[["mcp", "info", "fx", "extra"], "extra"], [["plugin", "approve", "mcp", "extra"], "extra"], [["audit", "log", "extra"], "extra"]] as const) {
      const result = await cli(args);
      expect(result.code).toBe(ExitCode.Usage);
      expect(result.stderr).toContain(`unexpected argument "${extra}"`);
    }
  });
});
