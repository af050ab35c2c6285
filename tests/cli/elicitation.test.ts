import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";
import { PtySession } from "../support/pty.js";

/**
 * An MCP server that asks the person for input during a guest call (elicitation/create), through
 * `mcpvm run`: on a terminal the form is asked and the answer reaches the server; with no terminal
 * the request is declined and the person is told why.
 */
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");
const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");
const hasScript = spawnSync("script", ["--version"]).status === 0;
// Cursor movement the prompt writes between the question and the typed text.
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");
const SCRIPT = 'return require("host:mcp-full").test_elicitation({ message: "What should we call you?" });';

let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL], confirm: "never" } } });
});

afterAll(async () => {
  await home?.cleanup();
});

describe("elicitation from an MCP server during mcpvm run", () => {
  it("with no terminal: declined, the server hears 'decline', and stderr says why", async () => {
    const io = captureIo(home.env, SCRIPT);
    const code = await runCli(["run", "-"], io);
    expect(io.stderrText()).toContain('MCP server full asked for input ("What should we call you?") but there is no terminal to ask on: declined.');
    expect(code).toBe(0);
    expect(io.stdoutText()).toContain("User response: action=decline");
  });

  it.skipIf(!hasScript)("on a terminal: the form is asked, and the person's answer reaches the server", async () => {
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(VITE_NODE)} ${JSON.stringify(CLI_ENTRY)} -- run -e ${JSON.stringify(SCRIPT)}`;
    // util-linux `script` gives the CLI a real pseudo-terminal; each answer is typed once its question is on the screen.
    const child = spawn("script", ["-qec", cli, "/dev/null"], { env: { ...process.env, ...home.env, NO_COLOR: "1" }, stdio: ["pipe", "pipe", "pipe"] });
    const answers: [RegExp, string][] = [
      [/response: $/, "Ada\r"],
      [/Send this to full\? \[y\/N\] $/, "y\r"],
    ];
    let screen = "";
    child.stdout.on("data", (chunk: Buffer) => {
      screen += chunk.toString("utf8");
      const visible = screen.replace(ANSI_ESCAPE, "");
      if (answers.length > 0 && answers[0]![0].test(visible)) child.stdin.write(answers.shift()![1]);
    });
    const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(screen).toContain("MCP server full asks: What should we call you?");
    expect(screen).toContain('User response: action=accept, content={"response":"Ada"}');
    expect(exitCode).toBe(0);
  }, 120_000);

  it.skipIf(!hasScript)("a run whose time runs out while the form waits: the question is withdrawn and the process ends (it stayed forever)", async () => {
    for (const answers of [[], ["Ada\r"]]) {
      const pty = new PtySession(["run", "--timeout", "15s", "-e", SCRIPT], home.env);
      try {
        await pty.expect("response: ");
        for (const keys of answers) {
          pty.type(keys);
          await pty.expect("Send this to full? [y/N] ");
        }
        const exited = await Promise.race([pty.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
        expect(exited, pty.screen).toBe(6);
        expect(pty.screen).toContain("(question withdrawn: ");
        expect(pty.screen).toContain("[MCP_CALL_TIMEOUT]");
        expect(pty.screen).not.toContain("told you cancelled");
      } finally {
        pty.kill();
      }
    }
  }, 120_000);
});
