import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { captureIo } from "../support/cli-io.js";
import { makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";
import { hasScript, PtySession } from "../support/pty.js";

/**
 * An MCP server that asks mcpvm's model for a reply (sampling/createMessage) during `mcpvm run`
 * with no terminal: declined, with the reason on stderr, in the server's error and in the audit log;
 * on a terminal: shown, and after a yes answered by the configured model within its cap.
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

describe("sampling during mcpvm mcp call, with no terminal", () => {
  it("declined the same way: the call fails with the reason", async () => {
    const env = { ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url };
    const io = captureIo(env);
    const code = await runCli(["mcp", "call", "full", "test_sampling", '{"prompt":"Name a colour."}'], io);
    expect(io.stderrText()).toContain("MCP server full asked the model to write a reply (sampling), but there is no terminal to ask on: declined.");
    expect(code).not.toBe(0);
    expect(llm.requests).toHaveLength(0);
    expect((await auditEntries()).filter((e) => e.event === "mcp.sampling").at(-1)).toMatchObject({ decision: "no-terminal", face: "cli" });
  });
});

describe.skipIf(!hasScript)("sampling during mcpvm run on a terminal", () => {
  it("shows the request; after a yes the configured model answers, bounded by model.samplingMaxTokens", async () => {
    const scripted = await startScriptedLlmServer([{ text: "Teal." }]);
    const configFile = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(configFile, "utf8")) as Record<string, unknown>;
    await writeFile(configFile, JSON.stringify({ ...config, model: { provider: "openai-compatible", model: "scripted", baseUrl: scripted.url, samplingMaxTokens: 30 } }, null, 2));
    const pty = new PtySession(["run", "-e", SCRIPT], home.env);
    try {
      await pty.expect("MCP server full asks the model to write a reply (sampling).");
      await pty.expect("at most 30 tokens out (the server asked for 100; the cap is 30)");
      await pty.expect("Send this to openai-compatible:scripted and return its reply to full? [y/N] ");
      pty.type("y\r");
      await pty.expect("Reply sent to full (5 characters, endTurn):\n    Teal.");
      await pty.expect("LLM response: Teal.");
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
      await writeFile(configFile, JSON.stringify(config, null, 2));
      await scripted.close();
    }
    expect((scripted.requests[0] as { max_tokens?: number }).max_tokens).toBe(30);
    expect((await auditEntries()).filter((e) => e.event === "mcp.sampling").at(-1)).toMatchObject({ decision: "allowed", face: "run", details: { maxTokens: 30, model: "openai-compatible:scripted" } });
  }, 180_000);
});
