import { mkdtemp, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActivityLog, MAX_ACTIVITY_BYTES, activityRecordSchema, argsText, type ActivityRecord } from "../../src/logging/activity-log.js";

const record = (tool: string, args: unknown = {}): ActivityRecord => ({ at: new Date().toISOString(), face: "gateway", pid: process.pid, server: "s", tool, durationMs: 1, outcome: "ok", ...argsText(args) });

async function linesOf(file: string): Promise<string[]> {
  return (await readFile(file, "utf8")).split("\n").filter((line) => line.length > 0);
}

describe("the activity log under many appends (batched writes, one open file)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-activity-batch-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps every line whole and in order when thousands arrive at once from two writers", async () => {
    const file = join(dir, "logs", "activity.jsonl");
    // Two logs on one file stand for two processes: each has its own descriptor opened with O_APPEND.
    const a = new ActivityLog(file);
    const b = new ActivityLog(file);
    for (let i = 0; i < 2_000; i++) {
      a.append(record(`a${i}`, { i, pad: "x".repeat(i % 300) }));
      b.append(record(`b${i}`, { i }));
    }
    await Promise.all([a.close(), b.close()]);
    const lines = await linesOf(file);
    expect(lines).toHaveLength(4_000);
    const tools = lines.map((line) => activityRecordSchema.parse(JSON.parse(line)).tool);
    // Each writer's own lines stay in the order it appended them.
    expect(tools.filter((t) => t.startsWith("a"))).toEqual(Array.from({ length: 2_000 }, (_, i) => `a${i}`));
    expect(tools.filter((t) => t.startsWith("b"))).toEqual(Array.from({ length: 2_000 }, (_, i) => `b${i}`));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("rotates past the cap, and notices another process's rotation within a second", async () => {
    const file = join(dir, "activity.jsonl");
    const log = new ActivityLog(file);
    const big = { text: "y".repeat(1_900) };
    const perLine = JSON.stringify(record("t", big)).length + 1;
    const count = Math.ceil((MAX_ACTIVITY_BYTES * 1.5) / perLine);
    for (let i = 0; i < count; i++) log.append(record(`t${i}`, big));
    await log.flush();
    expect((await stat(`${file}.1`)).size).toBeLessThanOrEqual(MAX_ACTIVITY_BYTES);
    expect((await stat(file)).size).toBeLessThanOrEqual(MAX_ACTIVITY_BYTES);
    const kept = [...(await linesOf(`${file}.1`)), ...(await linesOf(file))];
    expect(kept.at(-1)).toContain(`"tool":"t${count - 1}"`);
    expect(new Set(kept).size).toBe(kept.length);

    // Another process rotates the file away: lines appended a second later land in a new file.
    await rename(file, `${file}.1`);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    log.append(record("after-rotation"));
    await log.flush();
    expect((await linesOf(file)).map((line) => activityRecordSchema.parse(JSON.parse(line)).tool)).toEqual(["after-rotation"]);
    expect((await log.recent(1))[0]?.tool).toBe("after-rotation");
    await log.close();
  });

  it("warns once and keeps the call going when the folder cannot be made", async () => {
    const blocker = join(dir, "not-a-folder");
    await import("node:fs/promises").then((fs) => fs.writeFile(blocker, "x"));
    const warnings: string[] = [];
    const log = new ActivityLog(join(blocker, "activity.jsonl"), (message) => warnings.push(message));
    log.append(record("one"));
    log.append(record("two"));
    await log.flush();
    log.append(record("three"));
    await log.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("cannot write the activity log");
  });
});

describe("the activity log's delayed batch", () => {
  it("writes the lines of a process that exits before the batch timer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-activity-exit-"));
    try {
      const file = join(dir, "activity.jsonl");
      const { execFile } = await import("node:child_process");
      const { promisify } = await import("node:util");
      const { fileURLToPath } = await import("node:url");
      const root = join(fileURLToPath(import.meta.url), "..", "..", "..");
      const script = `import { ActivityLog, argsText } from ${JSON.stringify(join(root, "src/logging/activity-log.ts"))};
const log = new ActivityLog(${JSON.stringify(file)});
for (let i = 0; i < 3; i++) log.append({ at: new Date().toISOString(), face: "cli", pid: process.pid, server: "s", tool: "t" + i, durationMs: 1, outcome: "ok", ...argsText({}) });
process.exit(0);`;
      const entry = join(dir, "exit.ts");
      await import("node:fs/promises").then((fs) => fs.writeFile(entry, script));
      await promisify(execFile)(process.execPath, [join(root, "node_modules/vite-node/vite-node.mjs"), entry], { timeout: 60_000 });
      expect((await linesOf(file)).map((line) => activityRecordSchema.parse(JSON.parse(line)).tool)).toEqual(["t0", "t1", "t2"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
