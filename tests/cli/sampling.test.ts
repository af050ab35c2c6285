import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { captureIo } from "../support/cli-io.js";
import { makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";

/**
 * An MCP server that asks mcpvm's model for a reply (sampling/createMessage) during `mcpvm run`
 * with no terminal: declined, with the reason on stderr, in the server's error and in the audit log.
 * The terminal half (asked, answered by the model) is in sampling-pty.test.ts.
 */
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");
const SCRIPT = 'return require("host:mcp-full").test_sampling({ prompt: "Name a colour." });';

let home: E2eHome;
let llm: ScriptedLlmServer;

beforeAll(async () => {
  home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL], confirm: "never" } } });
  llm = await startScriptedLlmServer([]);
});

afterAll(async () => {
  await llm?.close();
  await home?.cleanup();
});

async function auditEntries(): Promise<Array<{ event: string; subject: string; decision: string; face: string; details?: Record<string, unknown> }>> {
  const text = await readFile(join(home.dir, "audit-log.jsonl"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("sampling from an MCP server during mcpvm run, with no terminal", () => {
  it("no model configured: declined with how to configure one; the server's tool fails with that reason", async () => {
    const io = captureIo(home.env, SCRIPT);
    const code = await runCli(["run", "-"], io);
    expect(io.stderrText()).toContain("MCP server full asked the model to write a reply (sampling), but no model can answer it (No LLM is configured.");
    expect(code).toBe(1);
    expect(io.stderrText()).toMatch(/declined/);
    expect(llm.requests).toHaveLength(0);
    const sampling = (await auditEntries()).filter((e) => e.event === "mcp.sampling");
    expect(sampling.at(-1)).toMatchObject({ subject: "full", decision: "no-model", face: "run", details: { messages: 1, requestedMaxTokens: 100 } });
  });

  it("a model configured but nobody to ask: declined (--yes does not answer it), nothing reaches the model", async () => {
    const env = { ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url };
    const io = captureIo(env, SCRIPT);
    const code = await runCli(["--yes", "run", "-"], io);
    expect(io.stderrText()).toContain("MCP server full asked the model to write a reply (sampling), but there is no terminal to ask on: declined.");
    expect(code).toBe(1);
    expect(llm.requests).toHaveLength(0);
    expect((await auditEntries()).filter((e) => e.event === "mcp.sampling").at(-1)).toMatchObject({ decision: "no-terminal" });
  });
});
