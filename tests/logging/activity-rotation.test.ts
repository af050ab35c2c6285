import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { ActivityLog, argsText, type ActivityRecord } from "../../src/logging/activity-log.js";

const run = promisify(execFile);
const record = (tool: string): ActivityRecord => ({ at: new Date().toISOString(), face: "run", pid: process.pid, server: "s", tool, durationMs: 1, outcome: "ok", ...argsText({ pad: "x".repeat(200) }) });

let dir: string;
let file: string;
let bundle: string;
let bundleDir: string;

beforeAll(async () => {
  bundleDir = await mkdtemp(join(tmpdir(), "mcpvm-activity-bundle-"));
  bundle = join(bundleDir, "activity.mjs");
  await build({ entryPoints: [resolve(import.meta.dirname, "fixtures/activity-writer.ts")], outfile: bundle, bundle: true, format: "esm", platform: "node", target: "node20", logLevel: "error" });
}, 60_000);
afterAll(async () => rm(bundleDir, { recursive: true, force: true }));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-activity-rotate-"));
  file = join(dir, "activity.jsonl");
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const tools = async (path: string) => (await readFile(path, "utf8")).split("\n").filter((l) => l !== "").map((l) => (JSON.parse(l) as ActivityRecord).tool);

describe("activity log rotation", () => {
  it("keeps `keep` rotated files, each under the size, and recent() reads back across them newest first", async () => {
    const log = new ActivityLog(file, () => undefined, { maxFileBytes: 4_000, keep: 3 });
    for (let i = 0; i < 200; i++) {
      log.append(record(`t${i}`));
      await log.flush();
      // Each batch reopens the file only past REOPEN_MS or the size: close to let every write see the size.
      if (i % 5 === 4) await log.close();
    }
    await log.close();
    expect((await readdir(dir)).sort()).toEqual(["activity.jsonl", "activity.jsonl.1", "activity.jsonl.2", "activity.jsonl.3"]);
    for (const name of await readdir(dir)) expect((await stat(join(dir, name))).size).toBeLessThanOrEqual(4_000);
    const kept = [...(await tools(`${file}.3`)), ...(await tools(`${file}.2`)), ...(await tools(`${file}.1`)), ...(await tools(file))];
    expect(kept.at(-1)).toBe("t199");
    // Consecutive: nothing between the kept files was lost.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `t${200 - kept.length + i}`));
    expect((await log.recent(kept.length + 50)).map((c) => c.tool)).toEqual([...kept].reverse());
    expect((await log.recent(3)).map((c) => c.tool)).toEqual(["t199", "t198", "t197"]);
  });

  it("two processes writing at once through many rotations lose no line", async () => {
    const each = 1_500;
    await Promise.all([0, 1].map((id) => run(process.execPath, [bundle, "write", file, String(each), String(id), "20000", "10000"], { timeout: 90_000 })));
    const names = (await readdir(dir)).filter((n) => n.startsWith("activity.jsonl"));
    expect(names.length).toBeGreaterThan(10);
    const all = (await Promise.all(names.map((n) => tools(join(dir, n))))).flat();
    for (const id of [0, 1]) {
      const mine = all.filter((t) => t.startsWith(`w${id}-`));
      expect(new Set(mine).size).toBe(each);
    }
    expect(all).toHaveLength(2 * each);
  }, 120_000);

  it("shows the newest calls of a 200 MB file (one from before rotation) reading only its end", async () => {
    const line = `${JSON.stringify(record("old"))}\n`;
    const chunk = line.repeat(Math.ceil((1024 * 1024) / line.length));
    const handle = await (await import("node:fs/promises")).open(file, "w", 0o600);
    for (let written = 0; written < 200 * 1024 * 1024; written += chunk.length) await handle.write(chunk);
    await handle.write(`${JSON.stringify(record("newest"))}\n`);
    await handle.close();
    const { stdout } = await run(process.execPath, [bundle, "recent", file, "200"], { timeout: 60_000 });
    const shown = JSON.parse(stdout) as { tools: string[]; maxRssKb: number; ms: number };
    console.log(`activity recent(200) of a 200 MB file: peak RSS ${Math.round(shown.maxRssKb / 1024)} MB, ${shown.ms} ms`);
    expect(shown.tools).toHaveLength(200);
    expect(shown.tools[0]).toBe("newest");
    expect(shown.maxRssKb / 1024).toBeLessThan(120);
    await writeFile(file, "");
  }, 120_000);
});
