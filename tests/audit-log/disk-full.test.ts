import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { AuditLog } from "../../src/audit-log/index.js";
import { writeFileAtomic } from "../../src/util/atomic-file.js";

const run = promisify(execFile);
const made: string[] = [];
const mounted: string[] = [];

afterEach(async () => {
  for (const dir of mounted.splice(0)) await run("umount", [dir]);
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-audit-full-"));
  made.push(dir);
  return dir;
}

const event = (i: number) => ({ event: "mcp.call.confirm" as const, subject: "echo", decision: "allowed", details: { tool: "echo", n: i } });

/** A real tmpfs of a few pages: the only way to get a real ENOSPC; needs root (CI runs it where it can mount). */
async function smallDisk(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const dir = await freshDir();
  try {
    await run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
  } catch {
    return undefined;
  }
  mounted.push(dir);
  return dir;
}

/** Writes 4 KiB files into `dir` until the file system refuses one. */
async function fillUp(dir: string): Promise<void> {
  await mkdir(join(dir, "fill"));
  for (let i = 0; ; i++) {
    try {
      await writeFile(join(dir, "fill", String(i)), Buffer.alloc(4096));
    } catch {
      return;
    }
  }
}

describe("config home files on a full disk", () => {
  it("a state file that cannot be written says so, names the file and says to free space (the first `serve --http` said `[INTERNAL] ENOSPC`)", async (context) => {
    const dir = await smallDisk();
    if (dir === undefined) return context.skip();
    await fillUp(dir);
    const file = join(dir, "gateway-token");
    await expect(writeFileAtomic(file, "x".repeat(64))).rejects.toMatchObject({
      code: "CONFIG_HOME_NOT_WRITABLE",
      message: expect.stringMatching(/^cannot write .*gateway-token: the file system is full; free space on the file system that holds /) as unknown,
    });
  });
});

describe("audit log on a disk that fills up", () => {
  it("an append whose head file cannot be written leaves the log as it was, so the chain still verifies", async () => {
    const dir = await freshDir();
    const file = join(dir, "audit-log.jsonl");
    const log = new AuditLog({ file, headFile: join(dir, "audit-log.head.json"), user: "admin", face: "gateway" });
    for (let i = 1; i <= 2; i++) await log.append(event(i));
    const before = await readFile(file, "utf8");
    // The same log whose head cannot be replaced (its folder is a file): the entry is written first, then the head fails.
    await writeFile(join(dir, "blocked"), "");
    const failing = new AuditLog({ file, headFile: join(dir, "blocked", "audit-log.head.json"), user: "admin", face: "gateway" });
    for (let i = 3; i <= 4; i++) await expect(failing.record(event(i))).rejects.toMatchObject({ code: "AUDIT_LOG_UNWRITABLE" });
    expect(await readFile(file, "utf8")).toBe(before);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
  });

  it("refuses the event with a message naming the file and the full disk, keeps the chain whole, and goes on once space is freed", async (context) => {
    const dir = await smallDisk();
    if (dir === undefined) return context.skip();
    const file = join(dir, "audit-log.jsonl");
    const log = new AuditLog({ file, headFile: join(dir, "audit-log.head.json"), user: "admin", face: "gateway" });
    await log.append(event(1));
    await fillUp(dir);
    for (let i = 2; i <= 4; i++) {
      await expect(log.record(event(i))).rejects.toThrow(/cannot write the audit log .*audit-log\.jsonl .*full: free space there/);
    }
    expect(await log.verify()).toMatchObject({ ok: true, entries: 1 });
    await rm(join(dir, "fill"), { recursive: true });
    await log.append(event(5));
    expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
  });
});
