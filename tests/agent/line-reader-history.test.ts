import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { LineReader } from "../../src/agent/repl/line-reader.js";

describe("the REPL's line reader keeps history on disk", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("writes a pasted burst of lines in the order typed, all on disk once historySaved resolves", async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-history-"));
    const file = join(dir, "nested", "history");
    const input = new PassThrough();
    const reader = new LineReader({ input, output: new PassThrough(), historyFile: file });
    const typed = Array.from({ length: 200 }, (_, i) => `/run return ${i} + ${"x".repeat(i % 37)}`);
    input.write(`${typed.join("\n")}\n`);
    input.end();
    const read: string[] = [];
    for (;;) {
      const outcome = await reader.read("> ", { history: true });
      if (outcome.kind !== "line") break;
      read.push(outcome.text);
      reader.suspend();
    }
    expect(read).toEqual(typed);
    await reader.historySaved();
    const saved = (await readFile(file, "utf8")).split("\n").filter((l) => l !== "");
    expect(saved).toEqual(typed);
  });

  it("reports a history file it cannot write, and goes on reading", async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-history-"));
    const errors: unknown[] = [];
    const input = new PassThrough();
    // A directory where the file should be: every append fails.
    const reader = new LineReader({ input, output: new PassThrough(), historyFile: dir, onHistoryError: (e) => errors.push(e) });
    input.write("one\ntwo\n");
    input.end();
    expect(await reader.read("> ", { history: true })).toEqual({ kind: "line", text: "one" });
    reader.suspend();
    expect(await reader.read("> ", { history: true })).toEqual({ kind: "line", text: "two" });
    reader.suspend();
    await reader.historySaved();
    expect(errors.length).toBe(2);
    expect((errors[0] as Error).message).toContain(`the REPL history ${dir} is a folder, not a file, so lines typed now are not saved`);
  });
});
