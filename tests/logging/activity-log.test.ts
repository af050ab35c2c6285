import { execFile } from "node:child_process";
import { mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActivityLog, FLUSH_DELAY_MS, MAX_ACTIVITY_BYTES, argsText, type ActivityRecord } from "../../src/logging/activity-log.js";

/**
 * The activity log is written off the calls' path, in coalesced writes: nothing is lost, lines of
 * two writers (two processes) never interleave, and the file still rotates past its bound.
 */

const record = (tool: string, args: unknown = {}): ActivityRecord => ({ at: new Date().toISOString(), face: "run", pid: process.pid, server: "s", tool, durationMs: 1, outcome: "ok", ...argsText(args) });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-activity-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, "utf8")).split("\n").filter((line) => line.length > 0);
}

describe("ActivityLog", () => {
  it("writes a call's line within its flush delay, without being asked to flush", async () => {
    const file = join(dir, "activity.jsonl");
    const log = new ActivityLog(file);
    log.append(record("first"));
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const written = await readFile(file, "utf8").catch(() => "");
      if (written.includes('"tool":"first"')) break;
      await new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS));
    }
    expect(await lines(file)).toHaveLength(1);
  });

  it("builds an appendLater record when its lines are written, in order with plain appends; a build that throws writes nothing", async () => {
    const file = join(dir, "activity.jsonl");
    const log = new ActivityLog(file);
    let built = 0;
    log.append(record("first"));
    log.appendLater(() => {
      built++;
      return record("second");
    });
    log.appendLater(() => {
      throw new Error("cannot be built");
    });
    log.append(record("third"));
    expect(built).toBe(0);
    await log.flush();
    expect(built).toBe(1);
    expect((await lines(file)).map((line) => (JSON.parse(line) as ActivityRecord).tool)).toEqual(["first", "second", "third"]);
    // A pending appendLater is built and written on close too.
    log.appendLater(() => record("fourth"));
    await log.close();
    expect((await lines(file)).at(-1)).toContain('"tool":"fourth"');
  });

  it("keeps every line of a thousand appends from two writers, each line whole", async () => {
    const file = join(dir, "nested", "activity.jsonl");
    const a = new ActivityLog(file);
    const b = new ActivityLog(file);
    for (let i = 0; i < 1000; i++) {
      a.append(record(`a${i}`, { i, pad: "x".repeat(i % 50) }));
      b.append(record(`b${i}`, { i }));
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([a.flush(), b.flush()]);
    const written = await lines(file);
    expect(written).toHaveLength(2000);
    const tools = written.map((line) => (JSON.parse(line) as ActivityRecord).tool);
    // Each writer's lines stay in its own order.
    expect(tools.filter((t) => t.startsWith("a"))).toEqual(Array.from({ length: 1000 }, (_, i) => `a${i}`));
    expect(tools.filter((t) => t.startsWith("b"))).toEqual(Array.from({ length: 1000 }, (_, i) => `b${i}`));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("rotates to .1 when a write would take the file past its bound", async () => {
    const file = join(dir, "activity.jsonl");
    const log = new ActivityLog(file);
    const big = "y".repeat(1_900);
    const perLine = `${JSON.stringify(record("t", { big }))}\n`.length;
    const count = Math.ceil(MAX_ACTIVITY_BYTES / perLine) + 10;
    for (let i = 0; i < count; i++) {
      log.append(record(`t${i}`, { big }));
      if (i % 500 === 0) await log.flush();
    }
    await log.flush();
    const current = (await stat(file)).size;
    const rotated = (await stat(`${file}.1`)).size;
    expect(current).toBeLessThanOrEqual(MAX_ACTIVITY_BYTES);
    expect(rotated).toBeLessThanOrEqual(MAX_ACTIVITY_BYTES);
    expect((await log.recent(1))[0]?.tool).toBe(`t${count - 1}`);
  });

  it("warns once and carries on when the file cannot be written", async () => {
    const warnings: string[] = [];
    // A folder where the file should be: every open fails.
    const log = new ActivityLog(dir, (message) => warnings.push(message));
    log.append(record("x"));
    await log.flush();
    log.append(record("y"));
    await log.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dir);
  });
});

describe("ActivityLog: one open file, written in batches", () => {
  it("notices another process's rotation within a second and writes to the new file", async () => {
    const file = join(dir, "activity.jsonl");
    const log = new ActivityLog(file);
    log.append(record("before-rotation"));
    await log.flush();
    // Another process rotates the file away while this one holds it open: lines appended a second later land in a new file.
    await rename(file, `${file}.1`);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    log.append(record("after-rotation"));
    await log.flush();
    expect((await lines(file)).map((line) => (JSON.parse(line) as ActivityRecord).tool)).toEqual(["after-rotation"]);
    expect((await lines(`${file}.1`)).map((line) => (JSON.parse(line) as ActivityRecord).tool)).toEqual(["before-rotation"]);
    await log.close();
  });

  it("keeps each write under the cap when one burst is bigger than the whole file", async () => {
    const file = join(dir, "activity.jsonl");
    const log = new ActivityLog(file);
    const big = { text: "y".repeat(1_900) };
    const count = Math.ceil((MAX_ACTIVITY_BYTES * 1.5) / `${JSON.stringify(record("t", big))}\n`.length);
    for (let i = 0; i < count; i++) log.append(record(`t${i}`, big));
    await log.close();
    expect((await stat(`${file}.1`)).size).toBeLessThanOrEqual(MAX_ACTIVITY_BYTES);
    expect((await stat(file)).size).toBeLessThanOrEqual(MAX_ACTIVITY_BYTES);
    const kept = [...(await lines(`${file}.1`)), ...(await lines(file))];
    expect(kept.at(-1)).toContain(`"tool":"t${count - 1}"`);
  });

  it("writes the lines of a process that exits before the batch timer", async () => {
    const file = join(dir, "activity.jsonl");
    const root = join(fileURLToPath(import.meta.url), "..", "..", "..");
    const script = `import { ActivityLog, argsText } from ${JSON.stringify(join(root, "src/logging/activity-log.ts"))};
const log = new ActivityLog(${JSON.stringify(file)});
for (let i = 0; i < 3; i++) log.append({ at: new Date().toISOString(), face: "cli", pid: process.pid, server: "s", tool: "t" + i, durationMs: 1, outcome: "ok", ...argsText({}) });
process.exit(0);`;
    const entry = join(dir, "exit.ts");
    await writeFile(entry, script);
    await promisify(execFile)(process.execPath, [join(root, "node_modules/vite-node/vite-node.mjs"), entry], { timeout: 60_000 });
    expect((await lines(file)).map((line) => (JSON.parse(line) as ActivityRecord).tool)).toEqual(["t0", "t1", "t2"]);
  }, 90_000);
});
