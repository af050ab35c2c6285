import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { makeHome, type E2eHome } from "../e2e/helpers.js";
import { hasScript, PtySession } from "../support/pty.js";

/**
 * A multi-line text pasted at the prompt is one message. The REPL turns on the terminal's bracketed
 * paste, so the newlines inside a paste stay in the line (shown as ␤) until Enter; without it every
 * pasted line went to the model as a message of its own, each a paid turn.
 */
let home: E2eHome;
let llm: ScriptedLlmServer;

beforeAll(async () => {
  home = await makeHome({ servers: {}, mcpPlugin: false });
  llm = await startScriptedLlmServer([{ text: "one message received" }, { text: "typed one" }]);
});

afterAll(async () => {
  await llm?.close();
  await home?.cleanup();
});

describe.skipIf(!hasScript)("pasting several lines at the prompt", () => {
  it("sends them as one message when Enter is pressed; typed lines are still one message each", async () => {
    const pty = new PtySession([], { ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url });
    try {
      await pty.expect("mcpvm> ");
      // What a terminal sends for a paste once bracketed paste is on.
      pty.type("\u001b[200~Fix this:\rconst a = 1\r\na.b()\u001b[201~");
      await pty.expect("Fix this:␤const a = 1␤a.b()");
      pty.type("\r");
      await pty.expect("one message received");
      await pty.expect("mcpvm> ");
      pty.type("plain\r");
      await pty.expect("typed one");
      await pty.expect("mcpvm> ");
      pty.type("/exit\r");
      expect(await pty.exited).toBe(0);
      // The mode is on at the prompt and off again when mcpvm leaves, so the shell after it is as it was.
      expect(pty.output).toContain("\u001b[?2004h");
      expect(pty.output.lastIndexOf("\u001b[?2004l")).toBeGreaterThan(pty.output.lastIndexOf("\u001b[?2004h"));
      expect(llm.requests.map((r) => r.messages.at(-1))).toEqual([
        { role: "user", content: "Fix this:\nconst a = 1\na.b()" },
        { role: "user", content: "plain" },
      ]);
    } finally {
      pty.kill();
    }
  }, 90_000);
});
