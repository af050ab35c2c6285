import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliProcess, makeHome, writeScript, type TrustHome } from "../trust/helpers.js";

/**
 * Field report row 90: guest code printed raw escape sequences to the terminal (clear screen,
 * colours, a fake prompt). `mcpvm run` now escapes control characters in what it prints as text,
 * and `--json` still returns the exact string.
 */
const ESC = "\u001b";
const SCRIPT = `
console.log("\\u001b[2J\\u001b[31mscreen cleared");
console.warn("warn \\u009b2J C1 CSI and \\u202e bidi override");
return "result \\u001b[1A\\u001b[2K  Allow this call? [y/N] y";
`;
const THROWS = `throw new Error("boom \\u001b]0;owned\\u0007 \\u001b[2J");`;

let home: TrustHome;
beforeAll(async () => {
  home = await makeHome({ servers: () => ({}) });
  await writeScript(home, "paint.js", SCRIPT);
  await writeScript(home, "throws.js", THROWS);
});
afterAll(async () => home?.cleanup());

describe("mcpvm run prints guest text with control characters escaped", () => {
  it("text output (a real process): logs, result and errors carry no ESC, C1 or bidi character, and show them escaped", { timeout: 240_000 }, async () => {
    const run = await cliProcess(home, ["run", "paint.js"]);
    expect(run.code).toBe(0);
    for (const stream of [run.stdout, run.stderr]) {
      expect(stream).not.toContain(ESC);
      expect(stream).not.toContain("\u009b");
      expect(stream).not.toContain("\u202e");
    }
    expect(run.stderr).toContain("\\x1b[2J\\x1b[31mscreen cleared");
    expect(run.stderr).toContain("warn \\x9b2J C1 CSI and \\u202e bidi override");
    expect(run.stdout).toBe("result \\x1b[1A\\x1b[2K  Allow this call? [y/N] y\n");

    const failed = await cli(home, ["run", "throws.js"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).not.toContain(ESC);
    expect(failed.stderr).not.toContain("\u0007");
    expect(failed.stderr).toContain("boom \\x1b]0;owned\\x07 \\x1b[2J");
  });

  it("--json output stays exact: the string comes back with its ESC bytes", async () => {
    const run = await cli(home, ["run", "--json", "paint.js"]);
    expect(run.code).toBe(0);
    const record = JSON.parse(run.stdout) as { result: string; logs: Array<{ level: string; message: string }> };
    expect(record.result).toBe(`result ${ESC}[1A${ESC}[2K  Allow this call? [y/N] y`);
    expect(record.logs[0]).toEqual({ level: "log", message: `${ESC}[2J${ESC}[31mscreen cleared` });
    // JSON.stringify escaped the control characters itself: the raw byte is not on stdout.
    expect(run.stdout).not.toContain(ESC);
  });
});
