import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

/** A read-only file system without privileges: a user + mount namespace with a read-only bind mount (Linux). */
function readOnlyMountProblem(): string | undefined {
  if (process.platform !== "linux") return "needs Linux mount namespaces";
  const probe = spawnSync("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", 'd=$(mktemp -d) && mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" && ! touch "$d/x" 2>/dev/null; s=$?; rmdir "$d"; exit $s'], { encoding: "utf8", timeout: 10_000 });
  if (probe.error !== undefined) return `no unshare (${probe.error.message})`;
  return probe.status === 0 ? undefined : `user namespaces are not allowed here (${probe.stderr.trim().split("\n")[0] ?? ""})`;
}
const problem = readOnlyMountProblem();

describe.skipIf(problem !== undefined)(`the audit log on a read-only config home (a gateway's mounted home)${problem === undefined ? "" : ` — skipped: ${problem}`}`, () => {
  let dir: string;
  let home: string;
  let bundle: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-audit-ro-"));
    home = join(dir, "home");
    await (await import("node:fs/promises")).mkdir(home, { mode: 0o700 });
    bundle = join(dir, "record.cjs");
    await build({ entryPoints: [resolve(import.meta.dirname, "fixtures/record-read-only.ts")], outfile: bundle, bundle: true, format: "cjs", platform: "node", target: "node20", logLevel: "error" });
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("hands the event, redacted, to whenReadOnly instead of failing; without it the write still fails", async () => {
    const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2" "$3" "$1"';
    const { stdout } = await run("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", home, process.execPath, bundle], { timeout: 60_000 });
    const { logged, plain } = JSON.parse(stdout) as { logged: Array<Record<string, unknown>>; plain?: string };
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ event: "mcp.call.confirm", subject: "memory", decision: "allowed", user: "gw", face: "gateway", details: { tool: "create_entities" } });
    expect(JSON.stringify(logged[0])).not.toContain("hunter2-secret-value");
    expect(typeof logged[0]?.time).toBe("string");
    expect(plain).toMatch(/^(CONFIG_HOME_NOT_WRITABLE|AUDIT_LOG_UNWRITABLE)$/);
    // Nothing was written behind the read-only mount.
    expect(await readdir(home)).toEqual([]);
  });
});
