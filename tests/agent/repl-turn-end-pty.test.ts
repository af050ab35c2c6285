import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { makeHome, type E2eHome } from "../e2e/helpers.js";
import { hasScript, PtySession } from "../support/pty.js";

/**
 * How a turn ends on a real terminal when the model gives no text: an empty answer, and a tool loop
 * stopped by maxSteps. The person must get the prompt back with no spinner drawing over it, and be
 * told why nothing was said.
 */
let home: E2eHome;
let llm: ScriptedLlmServer;

beforeAll(async () => {
  home = await makeHome({ servers: {}, mcpPlugin: false });
  const configFile = join(home.dir, "config.json");
  const config = JSON.parse(await readFile(configFile, "utf8")) as Record<string, unknown>;
  await writeFile(configFile, JSON.stringify({ ...config, model: { maxSteps: 2 } }));
  const call = (i: number) => ({ toolCalls: [{ name: "execute_javascript", arguments: { code: `return ${i}` } }] });
  llm = await startScriptedLlmServer([{ text: "" }, call(1), call(2), { text: "after the loop" }]);
});

afterAll(async () => {
  await llm?.close();
  await home?.cleanup();
});

describe.skipIf(!hasScript)("the end of a turn without text, on a terminal", () => {
  it("an empty answer stops the spinner and says so; a loop cut by maxSteps says how to continue", async () => {
    const pty = new PtySession([], { ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url });
    try {
      await pty.expect("mcpvm> ");
      pty.type("say nothing\r");
      await pty.expect("(the model answered with no text)");
      await pty.expect("mcpvm> ");
      // Long enough for several spinner frames (one every 80 ms) if one were still running.
      await new Promise((r) => setTimeout(r, 600));
      pty.type("loop\r");
      await pty.expect("The model stopped after 2 steps (model.maxSteps in config.json, default 12) with its work unfinished: send a message");
      await pty.expect("mcpvm> ");
      pty.type("go on\r");
      await pty.expect("after the loop");
      await pty.expect("mcpvm> ");
      const screen = pty.screen;
      const idle = screen.slice(screen.indexOf("(the model answered with no text)"), screen.indexOf("loop\n"));
      expect(idle).not.toContain("thinking…");
      pty.type("/exit\r");
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
  }, 90_000);
});
