import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { startScriptedLlmServer, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { captureIo } from "../support/cli-io.js";
import { ReplDriver, tempHome } from "./repl-driver.js";

/**
 * /save writes the conversation to the config home (atomically, 0600, known secrets masked);
 * `--resume <id|last>` carries on from it: the next request holds the earlier messages.
 */
describe("saving and resuming a conversation", () => {
  const cleanups: Array<() => Promise<void>> = [];
  let server: ScriptedLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("/save then --resume last: the model is sent the saved conversation; the file is 0600 and holds no secret", async () => {
    const home = await tempHome();
    cleanups.push(home.cleanup);
    server = await startScriptedLlmServer([{ text: "Noted the key." }, { text: "You told me about a key." }]);
    const secret = "sk-test-0123456789abcdef";
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url, MCPVM_API_KEY: secret };
    const first = new ReplDriver(env);
    await first.start();
    await first.command(`remember my key ${secret}`);
    await first.expect("Noted the key.", 60_000);
    await first.command("/save");
    await first.expect("Resume it with: mcpvm --resume ");
    await first.command("/exit");
    expect(await first.finish()).toBe(0);

    const files = await readdir(join(home.dir, "conversations"));
    expect(files).toHaveLength(1);
    const file = join(home.dir, "conversations", files[0] as string);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(secret);
    expect(text).toContain("remember my key");
    const id = (files[0] as string).replace(/\.json$/, "");
    expect(first.transcript).toContain(`Saved as ${id}`);

    const second = new ReplDriver(env, { resume: "last" });
    await second.start();
    await second.expect(`Resumed conversation ${id} (1 message from you, saved `);
    await second.command("what did I tell you?");
    await second.expect("You told me about a key.", 60_000);
    // The session's count agrees with its noun too (this REPL sent one message).
    await second.command("/tokens");
    await second.expect(/total over 1 message\n/);
    await second.command("/exit");
    expect(await second.finish()).toBe(0);
    const resumed = (server.requests[1]?.messages ?? []).map((m) => `${m.role}: ${String(m.content)}`);
    expect(resumed.slice(1)).toEqual([expect.stringMatching(/^user: remember my key (?!sk-test)/), "assistant: Noted the key.", "user: what did I tell you?"]);
  }, 180_000);

  it("`mcpvm --resume` with an unknown id is a usage error (exit 2) naming what is saved; a damaged file is exit 3", async () => {
    const home = await tempHome();
    cleanups.push(home.cleanup);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" };
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ engine: "quickjs" }));
    let io = captureIo(env, "/exit\n", home.dir);
    expect(await runCli(["--resume", "last"], io)).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain("--resume last: no such saved conversation. No conversation is saved yet: /save in the REPL saves one.");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(home.dir, "conversations"));
    await writeFile(join(home.dir, "conversations", "20261128-101010.json"), "{ not json");
    io = captureIo(env, "/exit\n", home.dir);
    expect(await runCli(["repl", "--resume", "20261128-101011"], io)).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain('no such saved conversation; did you mean "20261128-101010"? Saved: 20261128-101010, or last.');
    io = captureIo(env, "/exit\n", home.dir);
    expect(await runCli(["--resume=last"], io)).toBe(ExitCode.Config);
    expect(io.stderrText()).toContain("[STORE_CONVERSATION_INVALID]");
    expect(io.stderrText()).toContain("cannot be read as a saved conversation");
  }, 120_000);

  it("a conversations folder that cannot be used: /save says where and what to do and keeps the conversation; --resume is exit 3", async () => {
    const home = await tempHome();
    cleanups.push(home.cleanup);
    server = await startScriptedLlmServer([{ text: "Noted." }]);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url };
    const folder = join(home.dir, "conversations");
    // A file where the folder belongs (a stray copy, a sync tool's conflict): nothing can be listed or written there.
    await writeFile(folder, "not a folder");
    const repl = new ReplDriver(env);
    await repl.start();
    await repl.command("remember this");
    await repl.expect("Noted.", 60_000);
    await repl.command("/save");
    await repl.expect(`error [STORE_CONVERSATION_UNWRITABLE] cannot save the conversation in ${folder} (ENOTDIR: not a directory`);
    await repl.expect("the conversation is still here: move that file away (or fix the folder), then /save again.");
    const { rm } = await import("node:fs/promises");
    await rm(folder);
    await repl.command("/save");
    await repl.expect("Resume it with: mcpvm --resume ");
    await repl.command("/exit");
    expect(await repl.finish()).toBe(0);
    expect(await readdir(folder)).toHaveLength(1);

    await rm(folder, { recursive: true });
    await writeFile(folder, "not a folder");
    const io = captureIo(env, "/exit\n", home.dir);
    expect(await runCli(["--resume", "last"], io)).toBe(ExitCode.Config);
    expect(io.stderrText()).toContain(`[STORE_CONVERSATION_INVALID] ${folder} cannot be read as the folder of saved conversations (ENOTDIR: not a directory`);
    expect(io.stderrText()).toContain("move it away, then /save in the REPL saves there again.");
  }, 120_000);

  it("a saved file edited in another encoding, or written by another mcpvm version, is refused (exit 3) saying where and why", async () => {
    const home = await tempHome();
    cleanups.push(home.cleanup);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "" };
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ engine: "quickjs" }));
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(home.dir, "conversations"));
    const saved = (version: number, text: string) => JSON.stringify({ version, id: "20261128-101010", savedAt: "2026-11-28T10:10:10.000Z", messages: [{ role: "user", content: text }] });
    // "café" with Latin-1's one byte for é: read as U+FFFD without a word, the model was sent "caf\uFFFD".
    const latin1 = Buffer.concat([Buffer.from(saved(1, "caf").slice(0, -4)), Buffer.from([0xe9]), Buffer.from(`"}]}`)]);
    await writeFile(join(home.dir, "conversations", "20261128-101010.json"), latin1);
    let io = captureIo(env, "/exit\n", home.dir);
    expect(await runCli(["--resume", "last"], io)).toBe(ExitCode.Config);
    expect(io.stderrText()).toMatch(/20261128-101010\.json cannot be read as a saved conversation \(not valid UTF-8 at byte \d+ \(line 1\)\)/);
    await writeFile(join(home.dir, "conversations", "20261128-101010.json"), saved(2, "hello"));
    io = captureIo(env, "/exit\n", home.dir);
    expect(await runCli(["--resume", "last"], io)).toBe(ExitCode.Config);
    expect(io.stderrText()).toContain("was saved by another version of mcpvm (format 2; this one reads format 1)");
  }, 120_000);
});
