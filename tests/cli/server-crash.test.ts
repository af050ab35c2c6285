import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A server that crashes mid-call is a server failure, exit 6 (docs/USAGE.md), not the script's own
 * failure (1); the message names the server and the tool, says how the server ended and what it last
 * wrote on stderr, and what to run when a restart does not help.
 */
let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ crash: fixtureServer(join(dir, "crash.starts"), "--mode crash --crash-after 0") }) });
});

afterAll(async () => {
  await home?.cleanup();
});

function expectCrashReport(stderr: string): void {
  expect(stderr).toContain("[MCP_TRANSPORT_CLOSED]");
  expect(stderr).toContain("MCP tool crash.echo failed: MCP server crash exited (exit code 1) before it answered.");
  expect(stderr).toContain("`mcpvm doctor --connect` starts it and shows why");
  // The server's own last words, from its stderr.
  expect(stderr).toContain("fixture: crashing on call 1 as configured (--crash-after 0)");
}

describe("a server that crashes during a call", () => {
  it("in `mcpvm run`: exit 6, the server, tool, how it ended and its stderr tail", async () => {
    const out = await cli(home, ["--yes", "run", "-e", 'return require("host:mcp-crash").echo({ text: "x" })']);
    expect(out.code, out.stderr).toBe(ExitCode.Unavailable);
    expectCrashReport(out.stderr);
  }, 60_000);

  it("in `mcpvm run --json`: exit 6, errorCode MCP_TRANSPORT_CLOSED", async () => {
    const out = await cli(home, ["--yes", "--json", "run", "-e", 'return require("host:mcp-crash").echo({ text: "x" })']);
    expect(out.code, out.stderr).toBe(ExitCode.Unavailable);
    expect(JSON.parse(out.stdout)).toMatchObject({ ok: false, error: { errorCode: "MCP_TRANSPORT_CLOSED" } });
  }, 60_000);

  it("in `mcpvm mcp call`: exit 6 with the same report", async () => {
    const out = await cli(home, ["--yes", "mcp", "call", "crash", "echo", "text=x"]);
    expect(out.code, out.stderr).toBe(ExitCode.Unavailable);
    expectCrashReport(out.stderr);
  }, 60_000);

  it("a script that catches the error goes on (the code is the run's, not the call's)", async () => {
    const out = await cli(home, ["--yes", "run", "-e", 'try { require("host:mcp-crash").echo({ text: "x" }); } catch (e) { return e.code; }']);
    expect(out.code, out.stderr).toBe(ExitCode.Ok);
    expect(out.stdout.trim()).toBe("MCP_TRANSPORT_CLOSED");
  }, 60_000);
});
