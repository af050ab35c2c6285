import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, makeHome, type E2eHome } from "../e2e/helpers.js";
import { SCRIPTED } from "../trust/helpers.js";

/**
 * A definition that spells out credentials in its args or URL: the `mcp.approve` entry's summary (and
 * approved-mcp.json's) named them in full before wave 26, although the log promises no secret values.
 */
const ARG_KEY = "sk-argsecret-abcdefghijklmnop1234";
const FLAG_TOKEN = "ghp_0123456789abcdefABCDEF0123456789abcd";
const SHORT_PASSWORD = "hunter2!";
const URL_PASSWORD = "pa55wordXYZ123";
const URL_TOKEN = "qwertyuiop123456asdf";
const SECRETS = [ARG_KEY, FLAG_TOKEN, SHORT_PASSWORD, URL_PASSWORD, URL_TOKEN];

let home: E2eHome;
beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      tools: { command: process.execPath, args: [SCRIPTED, join(dir, "tools.spec.json"), "--api-key", ARG_KEY, `--token=${FLAG_TOKEN}`, "--password", SHORT_PASSWORD, "--key-file", "/etc/ssl/key.pem", "--auth", "${SERVICE_AUTH}", "--mode", "list-changed"] },
      remote: { type: "http", url: `https://user:${URL_PASSWORD}@127.0.0.1:1/mcp?access_token=${URL_TOKEN}&region=eu` },
    }),
  });
}, 60_000);
afterAll(async () => home.cleanup());

it("an approval's summary masks the credentials its definition spells out, and keeps what shows what runs", async () => {
  const log = await readFile(join(home.dir, "audit-log.jsonl"), "utf8");
  const approvals = await readFile(join(home.dir, "approved-mcp.json"), "utf8");
  for (const secret of SECRETS) {
    expect(log).not.toContain(secret);
    expect(approvals).not.toContain(secret);
  }
  const shown = await cli(home, ["--json", "audit", "log", "--event", "mcp.approve"]);
  expect(shown.code, shown.stderr).toBe(ExitCode.Ok);
  const summaries = Object.fromEntries((JSON.parse(shown.stdout).entries as { subject: string; details: { summary: string } }[]).map((e) => [e.subject, e.details.summary]));
  expect(summaries.tools).toBe(
    `${process.execPath} ${SCRIPTED} ${join(home.dir, "tools.spec.json")} --api-key **** --token=**** --password **** --key-file /etc/ssl/key.pem --auth \${SERVICE_AUTH} --mode list-changed`,
  );
  expect(summaries.remote).toBe("https://user:****@127.0.0.1:1/mcp?access_token=****&region=eu");
  const verified = await cli(home, ["audit", "verify"]);
  expect(verified.code, verified.stderr).toBe(ExitCode.Ok);
}, 60_000);
