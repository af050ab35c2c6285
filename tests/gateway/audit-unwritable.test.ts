import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { fixtureServer, firstText, makeHome, waitFor, type TestHome } from "./helpers.js";
import { bearerTransport, startServeProcess, tokenFileFlags } from "./serve-process.js";

const TOKEN = "audit-token-0123456789abcdef";

/**
 * A gateway whose audit log cannot be written (a full disk, here a head file that cannot be
 * replaced) refuses the audited call. The client is told; the person running the gateway must be
 * too, in its log, or they see calls fail with nothing to act on.
 */
describe("gateway with an audit log it cannot write", () => {
  let home: TestHome;
  let serveFlags: string[];

  beforeAll(async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    serveFlags = await tokenFileFlags(home.dir, TOKEN);
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  it("refuses the call, logs why at error level, and leaves the audit log as it was", { timeout: 180_000 }, async () => {
    const serve = await startServeProcess(home.env, serveFlags);
    const client = new Client({ name: "audit", version: "1" });
    try {
      const log = join(home.dir, "audit-log.jsonl");
      const before = await readFile(log, "utf8");
      // A directory where the head file goes: the entry is appended, then replacing the head fails.
      await rm(join(home.dir, "audit-log.head.json"));
      await mkdir(join(home.dir, "audit-log.head.json"));
      await client.connect(bearerTransport(serve.url, TOKEN));
      const result = await client.callTool({ name: "run_mcp_script", arguments: { script: 'return await require("host:mcp-fixture").echo({ text: "hi" })' } });
      expect(firstText(result)).toMatch(/cannot write the audit log/);
      await waitFor(() => /"level":50[^\n]*cannot write the audit log [^\n]*audit-log\.jsonl[^\n]*the call that needed it was refused/.test(serve.stderr()), 10_000, "the error line");
      expect(serve.stderr()).toMatch(/"code":"AUDIT_LOG_UNWRITABLE"/);
      expect(await readFile(log, "utf8")).toBe(before);
    } finally {
      await client.close();
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
