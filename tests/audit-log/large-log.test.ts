import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog, segmentPath } from "../../src/audit-log/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { bundleCli, type CliBundle } from "../support/cli-bundle.js";
import { writeBigLog } from "./fixtures/big-log.js";

const run = promisify(execFile);
const MB = 1024 * 1024;
/** Printed by the child on its way out: its peak resident memory (KB on Linux). */
const REPORT_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("\\nmaxrss-kb="+process.resourceUsage().maxRSS+"\\n"))`;

let dir: string;
let cli: CliBundle;
let entries: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-audit-large-"));
  [cli, entries] = await Promise.all([bundleCli(), writeBigLog(join(dir, "audit-log.jsonl"), join(dir, "audit-log.head.json"), 200 * MB)]);
}, 300_000);
afterAll(async () => {
  await cli?.remove();
  await rm(dir, { recursive: true, force: true });
});

/** `mcpvm <argv>` as its own process against the big log: its output, exit code, peak RSS (MB) and wall time (s). */
async function mcpvm(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string; rssMb: number; seconds: number }> {
  const started = performance.now();
  const result = await run(process.execPath, ["--import", REPORT_RSS, cli.file], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, MCPVM_HOME: dir, MCPVM_TEST_ARGV: JSON.stringify(argv) },
    maxBuffer: 64 * MB,
    timeout: 240_000,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout: string; stderr: string }) => ({ code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout, stderr: e.stderr }),
  );
  const rss = /maxrss-kb=(\d+)/.exec(result.stderr);
  const measured = { ...result, rssMb: Math.round(Number(rss?.[1]) / 1024), seconds: Math.round((performance.now() - started) / 100) / 10 };
  // The figures docs/SECURITY.md quotes come from this line.
  console.log(`mcpvm ${argv.join(" ")}: exit ${measured.code}, peak RSS ${measured.rssMb} MB, ${measured.seconds} s`);
  return measured;
}

describe("a 200 MB audit log", () => {
  it("`audit log` shows its newest entries reading only its end: memory and time do not follow the log's size", async () => {
    expect((await stat(join(dir, "audit-log.jsonl"))).size).toBeGreaterThanOrEqual(200 * MB);
    const shown = await mcpvm(["--json", "audit", "log", "--limit", "50"]);
    expect(shown.code, shown.stderr).toBe(ExitCode.Ok);
    const out = JSON.parse(shown.stdout) as { entries: Array<{ seq: number }>; olderBefore: number };
    expect(out.entries.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => entries - 49 + i));
    expect(out.olderBefore).toBe(entries - 49);
    expect(shown.rssMb).toBeGreaterThan(0);
    // The process alone peaks at about 110 MB; reading the log whole took 1 GB (wave 26).
    expect(shown.rssMb).toBeLessThan(150);
    expect(shown.seconds).toBeLessThan(30);
  }, 300_000);

  it("`audit verify` checks all of it in bounded memory, and goes on checking once the first append rotated it", async () => {
    const checked = await mcpvm(["--json", "audit", "verify"]);
    expect(checked.code, `${checked.stderr}\n${checked.stdout.slice(0, 2000)}`).toBe(ExitCode.Ok);
    expect(JSON.parse(checked.stdout)).toMatchObject({ ok: true, entries, head: { seq: entries } });
    // Reading it whole took 562 MB (wave 26); streaming, some 130-150 MB (the process alone is about 110 MB).
    expect(checked.rssMb).toBeLessThan(200);
    // A log from before rotation existed: the first append moves it whole to segment 1, and the chain runs on.
    const log = new AuditLog({ file: join(dir, "audit-log.jsonl"), headFile: join(dir, "audit-log.head.json"), user: "alice", face: "cli", rotation: { maxFileBytes: 10 * MB, keep: 9 } });
    await log.append({ event: "mcp.approve", subject: "memory", decision: "approved" });
    expect((await stat(segmentPath(join(dir, "audit-log.jsonl"), 1))).size).toBeGreaterThanOrEqual(200 * MB);
    const again = await mcpvm(["--json", "audit", "verify"]);
    expect(again.code, `${again.stderr}\n${again.stdout.slice(0, 2000)}`).toBe(ExitCode.Ok);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, entries: entries + 1, head: { seq: entries + 1 } });
  }, 600_000);
});
