import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleCli, type CliBundle } from "../support/cli-bundle.js";

/**
 * Two REPLs on one config home share its history file: one that starts (and compacts a file that
 * has grown past twice the history size) while the other is writing lines must not lose any of
 * them. Real `mcpvm repl` processes (the CLI bundled from the sources) on a real file.
 */

let bundle: CliBundle;
beforeAll(async () => {
  bundle = await bundleCli();
}, 60_000);
afterAll(async () => {
  await bundle.remove();
});

function repl(home: string, input: string): Promise<number> {
  const child = spawn(process.execPath, [bundle.file], {
    env: { PATH: process.env.PATH ?? "", HOME: home, MCPVM_HOME: home, MCPVM_TEST_ARGV: JSON.stringify(["repl"]) },
    stdio: ["pipe", "ignore", "ignore"],
  });
  child.stdin.end(input);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code ?? -1)));
}

const LINES = 6000;

describe("the REPL history file with two REPLs at once", () => {
  it("keeps every line one REPL writes while another starts and compacts the file", async () => {
    const home = await mkdtemp(join(tmpdir(), "mcpvm-history-"));
    try {
      const file = join(home, "history");
      for (let trial = 0; trial < 2; trial += 1) {
        // Over twice the history size: the next REPL to start rewrites the file with its last 1,000 lines.
        await writeFile(file, Array.from({ length: 2500 }, (_, i) => `old ${i}\n`).join(""), { mode: 0o600 });
        const writer = repl(home, Array.from({ length: LINES }, (_, i) => `/timeout ${i + 1}s\n`).join(""));
        // Start the second REPL once the first is appending.
        for (let waited = 0; !(await readFile(file, "utf8")).includes("/timeout 200s\n") && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
        expect(await repl(home, "")).toBe(0);
        expect(await writer).toBe(0);
        const numbers = (await readFile(file, "utf8")).split("\n").filter((l) => l.startsWith("/timeout ")).map((l) => Number.parseInt(l.slice("/timeout ".length), 10));
        // Compaction may drop the oldest lines, never a run of lines in the middle or at the end.
        const first = numbers[0] ?? 0;
        expect(numbers, `trial ${trial}`).toEqual(Array.from({ length: LINES - first + 1 }, (_, i) => first + i));
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 180_000);
});
