import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuditLog, segmentPath } from "../../src/audit-log/index.js";

const run = promisify(execFile);
let dir: string;
let file: string;
let headFile: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-audit-rotate-"));
  file = join(dir, "audit-log.jsonl");
  headFile = join(dir, "audit-log.head.json");
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

function rotating(maxFileBytes: number, keep: number, user = "alice"): AuditLog {
  return new AuditLog({ file, headFile, user, face: "cli", rotation: { maxFileBytes, keep } });
}

async function fill(log: AuditLog, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) await log.append({ event: "mcp.approve", subject: `s${i}`, decision: "approved", details: { hash: "ab".repeat(32) } });
}

const names = async () => (await readdir(dir)).filter((n) => n.startsWith("audit-log.") && n.endsWith(".jsonl")).sort();

describe("audit log rotation", () => {
  it("rotates past the size, keeps N segments, and the chain runs on from each segment into the next", async () => {
    const log = rotating(2_000, 3);
    await fill(log, 40);
    expect(await names()).toEqual(["audit-log.1.jsonl", "audit-log.2.jsonl", "audit-log.3.jsonl", "audit-log.jsonl"]);
    for (const name of await names()) expect((await stat(join(dir, name))).size).toBeLessThanOrEqual(2_000);
    // Each segment's first entry chains to the last of the one before it.
    const first = JSON.parse((await readFile(file, "utf8")).split("\n")[0] as string);
    const previous = (await readFile(segmentPath(file, 1), "utf8")).trim().split("\n").at(-1) as string;
    expect(first.prev).toBe(JSON.parse(previous).hash);
    expect(first.seq).toBe(JSON.parse(previous).seq + 1);
    // The oldest segments were dropped: verify checks what is kept and says from where, not "tampered".
    const verdict = await log.verify();
    expect(verdict).toMatchObject({ ok: true, head: { seq: 40 }, from: { file: segmentPath(file, 3), line: 1 } });
    expect(verdict.ok && verdict.from !== undefined && verdict.from.seq > 1).toBe(true);
    expect(verdict.ok && verdict.files).toEqual([segmentPath(file, 3), segmentPath(file, 2), segmentPath(file, 1), file]);
    // The newest entries come back in order, across the segments.
    const tail = await log.tail({ limit: 12 });
    expect(tail.entries.map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => 29 + i));
    expect(tail.olderBefore).toBe(29);
    expect((await log.tail({ limit: 3, before: 29 })).entries.map((e) => e.seq)).toEqual([26, 27, 28]);
  });

  it("names an entry tampered with in an old segment by file and line", async () => {
    const log = rotating(2_000, 20);
    await fill(log, 30);
    const old = segmentPath(file, 2);
    const lines = (await readFile(old, "utf8")).split("\n");
    lines[2] = (lines[2] as string).replace('"approved"', '"revoked"');
    await writeFile(old, lines.join("\n"));
    const seq = JSON.parse(lines[2] as string).seq as number;
    expect(await log.verify()).toMatchObject({ ok: false, problem: "hash-mismatch", file: old, line: 3, seq, intact: seq - 1 });
  });

  it("a segment removed from the middle breaks the chain there; the oldest kept one starting mid-chain does not", async () => {
    const log = rotating(2_000, 20);
    await fill(log, 30);
    const segments = (await names()).filter((n) => n !== "audit-log.jsonl");
    expect(segments.length).toBeGreaterThanOrEqual(3);
    await rm(segmentPath(file, segments.length));
    const fromSecond = await log.verify();
    expect(fromSecond).toMatchObject({ ok: true, head: { seq: 30 }, from: { file: segmentPath(file, segments.length - 1), line: 1 } });
    await rm(segmentPath(file, 2));
    expect(await log.verify()).toMatchObject({ ok: false, problem: "seq-gap", file: segmentPath(file, 1), line: 1 });
  });

  it("lowering keep drops the segments past it at the next rotation; a live file with no segments before it must start at entry 1", async () => {
    await fill(rotating(2_000, 20), 30);
    const before = (await names()).length;
    await fill(rotating(2_000, 2), 10);
    expect(before).toBeGreaterThan(4);
    expect(await names()).toEqual(["audit-log.1.jsonl", "audit-log.2.jsonl", "audit-log.jsonl"]);
    for (const name of await names()) if (name !== "audit-log.jsonl") await rm(join(dir, name));
    expect(await rotating(2_000, 2).verify()).toMatchObject({ ok: false, problem: "seq-gap", line: 1 });
  });

  it("a crash between moving the live file away and the next append: that append chains to the head", async () => {
    const log = rotating(1_000_000, 3);
    await fill(log, 3);
    // What a writer killed right after rotate()'s rename leaves: segment 1, no live file.
    await writeFile(segmentPath(file, 1), await readFile(file));
    await rm(file);
    await fill(log, 1);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 4, head: { seq: 4 } });
  });
});

describe("audit log rotation across processes", () => {
  let bundle: string;
  let bundleDir: string;

  beforeAll(async () => {
    bundleDir = await mkdtemp(join(tmpdir(), "mcpvm-audit-bundle-"));
    bundle = join(bundleDir, "append.cjs");
    await build({ entryPoints: [resolve(import.meta.dirname, "fixtures/append-entry.ts")], outfile: bundle, bundle: true, format: "cjs", platform: "node", target: "node20", logLevel: "error" });
  }, 60_000);
  afterAll(async () => rm(bundleDir, { recursive: true, force: true }));

  it("two writers appending at once through many rotations lose no entry, and a verify beside them never cries tampering", async () => {
    const each = 150;
    const writing = Promise.all([0, 1].map((id) => run(process.execPath, [bundle, file, headFile, String(each), String(id), "4000", "1000"], { timeout: 90_000 })));
    let done = false;
    void writing.finally(() => (done = true));
    const alarms: string[] = [];
    let checks = 0;
    while (!done) {
      const verdict = await rotating(4_000, 1000).verify();
      checks++;
      if (!verdict.ok) alarms.push(verdict.message);
    }
    await writing;
    expect(checks).toBeGreaterThan(5);
    expect([...new Set(alarms)].slice(0, 3)).toEqual([]);
    const log = rotating(4_000, 1000);
    const final = await log.verify();
    // Nothing was dropped (keep 1000): the chain is checked from entry 1.
    expect(final).toMatchObject({ ok: true, entries: 2 * each, head: { seq: 2 * each } });
    expect("from" in final).toBe(false);
    expect((await names()).length).toBeGreaterThan(10);
    const { entries } = await log.read();
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 2 * each }, (_, i) => i + 1));
    for (const id of [0, 1]) expect(entries.filter((e) => e.user === `writer-${id}`).map((e) => e.details?.i)).toEqual(Array.from({ length: each }, (_, i) => i));
  }, 120_000);
});
