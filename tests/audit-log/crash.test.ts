import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuditLog } from "../../src/audit-log/index.js";

/**
 * A writer killed (kill -9, OOM, power loss) leaves the log in a state no tampering made: an entry
 * written and fsynced whose head update never happened, or a last line cut short. `audit verify` must
 * not call the first tampering, and must go on naming the second; the next append must chain on.
 */
let dir: string;
let log: AuditLog;
let bundle: string;
let bundleDir: string;

beforeAll(async () => {
  bundleDir = await mkdtemp(join(tmpdir(), "mcpvm-audit-bundle-"));
  bundle = join(bundleDir, "append.cjs");
  await build({ entryPoints: [resolve(import.meta.dirname, "fixtures/append-entry.ts")], outfile: bundle, bundle: true, format: "cjs", platform: "node", target: "node20", logLevel: "error" });
});
afterAll(async () => rm(bundleDir, { recursive: true, force: true }));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-audit-crash-"));
  log = new AuditLog({ file: join(dir, "audit-log.jsonl"), headFile: join(dir, "audit-log.head.json"), user: "alice", face: "cli" });
});

const append = (subject: string) => log.append({ event: "mcp.approve", subject, decision: "approved" });

describe("audit log after a crash", () => {
  it("an entry written whose head update never happened (killed between the two) verifies, and the next append settles the head", async () => {
    for (let i = 1; i <= 3; i++) await append(`s${i}`);
    const headBefore = await readFile(join(dir, "audit-log.head.json"), "utf8");
    await append("s4");
    // The state a writer killed after the entry's fsync and before the head's rename leaves behind.
    await writeFile(join(dir, "audit-log.head.json"), headBefore);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 4 });
    await append("s5");
    expect(await log.verify()).toMatchObject({ ok: true, entries: 5, head: { seq: 5 } });
  });

  it("a log with the head two entries behind is still refused (that is no single crash)", async () => {
    for (let i = 1; i <= 3; i++) await append(`s${i}`);
    const headBefore = await readFile(join(dir, "audit-log.head.json"), "utf8");
    await append("s4");
    await append("s5");
    await writeFile(join(dir, "audit-log.head.json"), headBefore);
    expect(await log.verify()).toMatchObject({ ok: false, problem: "head-mismatch" });
  });

  it("a real writer killed with SIGKILL mid-stream leaves a log that verifies and chains on", async () => {
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [bundle, log.file, join(dir, "audit-log.head.json"), "1000000", String(round)], { stdio: "ignore" });
      // Let it write for a while, then kill it wherever it is.
      const started = Date.now();
      while (((await stat(log.file).catch(() => undefined))?.size ?? 0) < (round + 1) * 20_000 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 37 * round));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const verdict = await log.verify();
      expect(verdict, JSON.stringify(verdict)).toMatchObject({ ok: true });
    }
    await append("after");
    expect(await log.verify()).toMatchObject({ ok: true });
  }, 90_000);

  it("a last line cut short is named by verify, and the next entry is still written whole on a line of its own", async () => {
    for (let i = 1; i <= 3; i++) await append(`s${i}`);
    const text = await readFile(log.file, "utf8");
    // A torn write: the last entry's line lost its end (and its newline).
    await writeFile(log.file, text.slice(0, text.length - 40));
    await append("s4");
    expect(await log.verify()).toMatchObject({ ok: false, problem: "not-json", line: 3, intact: 2 });
    const lines = (await readFile(log.file, "utf8")).split("\n");
    expect(JSON.parse(lines[3] as string)).toMatchObject({ subject: "s4" });
  });
});
