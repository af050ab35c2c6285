import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import type { CommandContext } from "../../src/terminal/command.js";
import { colours } from "../../src/terminal/io.js";
import { ask } from "../../src/terminal/prompt.js";
import { progressText } from "../../src/terminal/server-progress.js";
import { Spinner } from "../../src/terminal/spinner.js";
import { FIXTURE, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * Progress while servers start: `mcpvm run` on a terminal shows which server is starting and for
 * how long (an npx start may be a download), and a spinner never draws over a question being asked
 * (an `${input:…}` prompt used to be erased 80 ms after it appeared).
 */

/** A stream that says it is a terminal, recording everything written to it. */
function fakeTerminal(): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true });
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stream, text: () => text };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The escape sequence is what a spinner frame is made of.
// eslint-disable-next-line no-control-regex
const FRAME = /\r\u001b\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g;

describe("spinners and prompts", () => {
  it("a question pauses every spinner until it is answered, then the spinner goes on", async () => {
    const terminal = fakeTerminal();
    const stdin = new PassThrough();
    const context = { io: { stdin, stdout: new PassThrough(), stderr: terminal.stream, env: {}, cwd: "/" }, colours: colours({ isTTY: false }, {}), interactive: true, assumeYes: false, json: false, host: () => Promise.reject(new Error("no host")) } satisfies CommandContext;
    const spinner = new Spinner(terminal.stream);
    spinner.start("starting MCP server github…");
    await sleep(200);
    expect(terminal.text().match(FRAME)?.length ?? 0).toBeGreaterThan(0);
    const answer = ask(context, "GitHub token: ", true);
    await sleep(400);
    const afterQuestion = terminal.text().slice(terminal.text().lastIndexOf("GitHub token: "));
    expect(afterQuestion.match(FRAME)).toBeNull();
    stdin.write("ghp_secret\n");
    expect(await answer).toBe("ghp_secret");
    await sleep(300);
    const afterAnswer = terminal.text().slice(terminal.text().lastIndexOf("GitHub token: "));
    expect(afterAnswer.match(FRAME)?.length ?? 0).toBeGreaterThan(0);
    expect(afterAnswer).not.toContain("ghp_secret");
    spinner.stop();
  });

  it("the progress text names the servers, their time, and a likely download for npx/uvx", () => {
    const starting = new Map([
      ["memory", { since: 0, runner: "npx" }],
      ["local", { since: 2_500, runner: undefined }],
    ]);
    expect(progressText(starting, 4_000)).toBe("starting MCP server memory (npx may be downloading it on its first start) 4 s, local 1 s…");
    expect(progressText(new Map([["memory", { since: 0, runner: "npx" }]]), 500)).toBe("starting MCP server memory…");
  });
});

describe("mcpvm run on a terminal", () => {
  let home: E2eHome;
  beforeAll(async () => {
    home = await makeHome({
      servers: (dir) => {
        // A hanging server started as "npx", like a cold download.
        const npx = join(dir, "npx");
        writeFileSync(npx, `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}" --mode hang-initialize\n`);
        chmodSync(npx, 0o755);
        return {
          slow: fixtureServer(join(dir, "slow.starts"), "--mode hang-initialize", { connectTimeoutMs: 2_500 }),
          cold: { command: npx, args: ["-y", "some-mcp-package"], connectTimeoutMs: 4_500 },
        };
      },
    });
  });
  afterAll(async () => home?.cleanup());

  it("shows which server is starting and for how long, and clears the line when it is done", async () => {
    const terminal = fakeTerminal();
    const stdout = new PassThrough();
    const code = await runCli(["run", "-"], { stdin: Readable.from(['try { require("host:mcp-slow"); } catch (e) { return e.code; }']), stdout, stderr: terminal.stream, env: home.env, cwd: home.dir });
    expect(code).toBe(0);
    const text = terminal.text();
    expect(text).toContain("starting MCP server slow…");
    expect(text).toMatch(/starting MCP server slow [12] s…/);
    // The last thing drawn before the result is the cleared line, not a frame.
    expect(text.slice(text.lastIndexOf("starting MCP server"))).toContain("\r\u001b[2K");
  });

  it("mcp info on an npx server says the first start may be a download, with the time so far", async () => {
    const terminal = fakeTerminal();
    const code = await runCli(["mcp", "info", "cold"], { stdin: Readable.from([]), stdout: new PassThrough(), stderr: terminal.stream, env: home.env, cwd: home.dir });
    expect(code).toBe(6);
    expect(terminal.text()).toMatch(/starting MCP server cold \(npx may be downloading it on its first start\) [34] s…/);
    expect(terminal.text()).toContain("a download was likely still in progress");
  });
});
