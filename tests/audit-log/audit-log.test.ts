import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuditLog, verifyChain } from "../../src/audit-log/index.js";
import { Redactor } from "../../src/logging/redact.js";

const run = promisify(execFile);
let dir: string;
let log: AuditLog;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-audit-"));
  log = new AuditLog({ file: join(dir, "audit-log.jsonl"), headFile: join(dir, "audit-log.head.json"), user: "alice", face: "cli" });
});

async function fill(n: number): Promise<string[]> {
  for (let i = 1; i <= n; i++) await log.append({ event: "mcp.approve", subject: `s${i}`, decision: "approved", details: { hash: "ab".repeat(32) } });
  return (await readFile(log.file, "utf8")).split("\n");
}

async function rewrite(lines: readonly string[]): Promise<void> {
  await writeFile(log.file, lines.join("\n"));
}

describe("audit log chain", () => {
  it("settles only once every append started, from any of its faces, is on disk and its lock released", async () => {
    // Not awaited: the way a confirmation cancelled after its face moved on records its decision.
    void log.record({ event: "mcp.call.confirm", subject: "memory", decision: "declined" });
    void log.as("repl").record({ event: "mcp.call.confirm", subject: "memory", decision: "cancelled" });
    await log.settled();
    const { entries } = await log.read();
    expect(entries.map((e) => [e.face, e.decision]).sort()).toEqual([["cli", "declined"], ["repl", "cancelled"]]);
    await expect(readFile(`${log.file}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it("appends entries that chain and verify, with user, face, time and decision", async () => {
    await fill(3);
    const { entries } = await log.read();
    expect(entries.map((e) => [e.seq, e.user, e.face, e.event, e.subject, e.decision])).toEqual([
      [1, "alice", "cli", "mcp.approve", "s1", "approved"],
      [2, "alice", "cli", "mcp.approve", "s2", "approved"],
      [3, "alice", "cli", "mcp.approve", "s3", "approved"],
    ]);
    expect(entries[1]?.prev).toBe(entries[0]?.hash);
    expect(Date.parse(entries[0]?.time ?? "")).not.toBeNaN();
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3, head: { seq: 3, hash: entries[2]?.hash } });
  });

  it("names an entry edited in place", async () => {
    const lines = await fill(4);
    lines[1] = (lines[1] as string).replace('"approved"', '"revoked"');
    await rewrite(lines);
    expect(await log.verify()).toMatchObject({ ok: false, problem: "hash-mismatch", seq: 2, line: 2, intact: 1 });
  });

  it("names an entry edited with its own hash recomputed (the next one no longer chains)", async () => {
    const lines = await fill(4);
    const { entryHash } = await import("../../src/audit-log/chain.js");
    const entry = JSON.parse(lines[1] as string);
    entry.decision = "revoked";
    entry.hash = entryHash(entry);
    lines[1] = JSON.stringify(entry);
    await rewrite(lines);
    expect(await log.verify()).toMatchObject({ ok: false, problem: "prev-mismatch", seq: 3, line: 3 });
  });

  it("names the entry after one that was deleted", async () => {
    const lines = await fill(5);
    lines.splice(2, 1);
    await rewrite(lines);
    expect(await log.verify()).toMatchObject({ ok: false, problem: "seq-gap", seq: 4, line: 3, intact: 2 });
  });

  it("names reordered entries", async () => {
    const lines = await fill(5);
    [lines[1], lines[2]] = [lines[2] as string, lines[1] as string];
    await rewrite(lines);
    expect(await log.verify()).toMatchObject({ ok: false, problem: "seq-gap", seq: 3, line: 2, intact: 1 });
  });

  it("notices entries cut from the end (the head file remembers the last one)", async () => {
    const lines = await fill(5);
    await rewrite(lines.slice(0, 3));
    expect(await log.verify()).toMatchObject({ ok: false, problem: "head-mismatch", intact: 3 });
    await rm(join(dir, "audit-log.head.json"));
    expect(await log.verify()).toMatchObject({ ok: false, problem: "head-mismatch" });
  });

  it("a first entry whose head file is not written yet (a writer between the two, or killed there) is intact; a missing head later is not", async () => {
    await fill(1);
    await rm(join(dir, "audit-log.head.json"));
    expect(await log.verify()).toMatchObject({ ok: true, entries: 1 });
    await fill(1);
    await rm(join(dir, "audit-log.head.json"));
    expect(await log.verify()).toMatchObject({ ok: false, problem: "head-mismatch" });
  });

  it("names a line that is not JSON", async () => {
    const lines = await fill(3);
    lines[2] = "{cut";
    await rewrite(lines);
    expect(await log.verify()).toMatchObject({ ok: false, problem: "not-json", line: 3 });
  });

  it("an empty log verifies; verifyChain alone needs no file", async () => {
    expect(await log.verify()).toMatchObject({ ok: true, entries: 0 });
    expect(verifyChain([], undefined)).toMatchObject({ ok: true, entries: 0 });
  });

  it("never stores a secret: every string passes the redactor", async () => {
    const secret = "sk-live-0123456789abcdef";
    const redacting = new AuditLog({ file: log.file, headFile: join(dir, "audit-log.head.json"), user: "alice", face: "repl", redactor: new Redactor([secret]) });
    await redacting.append({ event: "mcp.call.confirm", subject: "mail", decision: "allowed", details: { tool: `send ${secret}`, nested: { list: [secret] } } });
    const text = await readFile(log.file, "utf8");
    expect(text).not.toContain(secret);
    expect(text).toContain("****");
    expect(await redacting.verify()).toMatchObject({ ok: true, entries: 1 });
  });
});

describe("audit log across processes", () => {
  let bundle: string;
  let bundleDir: string;

  beforeAll(async () => {
    bundleDir = await mkdtemp(join(tmpdir(), "mcpvm-audit-bundle-"));
    bundle = join(bundleDir, "append.cjs");
    await build({ entryPoints: [resolve(import.meta.dirname, "fixtures/append-entry.ts")], outfile: bundle, bundle: true, format: "cjs", platform: "node", target: "node20", logLevel: "error" });
  }, 60_000);

  afterAll(async () => {
    await rm(bundleDir, { recursive: true, force: true });
  });

  it("concurrent appends from real processes keep one valid chain", async () => {
    const writers = 6;
    const each = 15;
    await Promise.all(Array.from({ length: writers }, (_, id) => run(process.execPath, [bundle, log.file, join(dir, "audit-log.head.json"), String(each), String(id)], { timeout: 90_000 })));
    const verdict = await log.verify();
    expect(verdict).toMatchObject({ ok: true, entries: writers * each });
    const { entries } = await log.read();
    expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: writers * each }, (_, i) => i + 1));
    // Every writer's every entry is there.
    for (let id = 0; id < writers; id++) expect(entries.filter((e) => e.user === `writer-${id}`)).toHaveLength(each);
  }, 120_000);

  it("verify while two processes append never reports tampering (it read the lines, then a head a writer had moved since)", async () => {
    const writing = Promise.all([0, 1].map((id) => run(process.execPath, [bundle, log.file, join(dir, "audit-log.head.json"), "150", String(id)], { timeout: 90_000 })));
    let done = false;
    void writing.finally(() => (done = true));
    const alarms: string[] = [];
    let checks = 0;
    while (!done) {
      const verdict = await log.verify();
      checks++;
      if (!verdict.ok) alarms.push(verdict.message);
    }
    await writing;
    expect(checks).toBeGreaterThan(20);
    expect([...new Set(alarms)].slice(0, 3)).toEqual([]);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 300 });
  }, 120_000);
});
