import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureServer, makeHome, readStarts, ROOT, waitFor, type E2eHome } from "../e2e/helpers.js";
import { isRunning } from "../support/processes.js";
import { hasScript, PtySession } from "../support/pty.js";

/**
 * A signal that ends mcpvm ends every MCP server it started (docs/USAGE.md, Exit codes). The servers
 * here ignore the end of their stdin (fixture modes hang-initialize and hang-call), so only a signal
 * stops them; they start in process groups of their own, so the terminal's Ctrl-C never reaches
 * them. Commands without a Ctrl-C answer of their own used to die on the spot and leave them running.
 */
const CLI = [join(ROOT, "node_modules", "vite-node", "vite-node.mjs"), join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts"), "--"];
let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({
    servers: (dir) => ({
      hang: fixtureServer(join(dir, "hang.starts"), "--mode hang-initialize"),
      callhang: fixtureServer(join(dir, "callhang.starts"), "--mode hang-call"),
      fresh: fixtureServer(join(dir, "fresh.starts"), "--mode hang-initialize"),
    }),
    approve: ["hang", "callhang"],
  });
});

afterAll(async () => {
  await home?.cleanup();
});

/** Every fixture start recorded so far in these starts files. */
function started(names: readonly string[]): number[] {
  return names.flatMap((name) => readStarts(home.startsFile(name)));
}

/** Runs `mcpvm <args>`, waits until the named servers have started, sends `signal`; the exit code, stderr and the servers' pids. */
async function signalled(args: readonly string[], servers: readonly string[], signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string; pids: number[] }> {
  const before = new Set(started(servers));
  const child = spawn(process.execPath, [...CLI, ...args], { env: { ...process.env, ...home.env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const fresh = () => started(servers).filter((pid) => !before.has(pid));
  try {
    await waitFor(() => fresh().length === servers.length, `${servers.join(", ")} to start under mcpvm ${args.join(" ")}`, 60_000);
    // The servers are waiting on their stdin now (they answer nothing more in these modes).
    await new Promise((r) => setTimeout(r, 300));
    child.kill(signal);
    const code = await Promise.race([exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), 20_000))]);
    if (code === "still running") throw new Error(`mcpvm ${args.join(" ")} still ran 20 s after ${signal}; stderr:\n${stderr}`);
    return { code, stderr, pids: fresh() };
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

/** None of `pids` may be running once mcpvm has exited (a zombie waiting for its reaper is not running). */
async function expectGone(pids: readonly number[]): Promise<void> {
  expect(pids.length).toBeGreaterThan(0);
  try {
    await waitFor(() => pids.every((pid) => !isRunning(pid)), "the servers to be gone", 2_000);
  } catch {
    const left = pids.filter(isRunning);
    for (const pid of left) process.kill(pid, "SIGKILL");
    expect(left, "servers left running after mcpvm exited").toEqual([]);
  }
}

describe("a signal that ends mcpvm ends the servers it started", () => {
  it("Ctrl-C (SIGINT) during `mcp list --check`: exit 130, both servers gone", async () => {
    const { code, stderr, pids } = await signalled(["mcp", "list", "--check"], ["hang", "callhang"], "SIGINT");
    await expectGone(pids);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("mcpvm: interrupted (Ctrl-C); stopping the 2 MCP servers it started");
    // What the command would say about its servers dying is the signal's doing, not news.
    expect(stderr).not.toContain("killed by SIGTERM");
  }, 120_000);

  it("SIGINT during `doctor --connect`: exit 130, servers gone", async () => {
    const { code, stderr, pids } = await signalled(["doctor", "--connect"], ["hang", "callhang"], "SIGINT");
    await expectGone(pids);
    expect(code, stderr).toBe(130);
  }, 120_000);

  it("SIGTERM during `mcp info`: exit 143, server gone", async () => {
    const { code, stderr, pids } = await signalled(["mcp", "info", "hang"], ["hang"], "SIGTERM");
    await expectGone(pids);
    expect(code, stderr).toBe(143);
    expect(stderr).toContain("mcpvm: stopped by SIGTERM; stopping the MCP server it started");
  }, 120_000);

  it("SIGHUP (the terminal closed) during `mcp info`: exit 129, server gone, nothing written", async () => {
    const { code, stderr, pids } = await signalled(["mcp", "info", "hang"], ["hang"], "SIGHUP");
    await expectGone(pids);
    expect(code, stderr).toBe(129);
    expect(stderr).not.toContain("mcpvm:");
  }, 120_000);

  it("SIGTERM during `run` (whose own Ctrl-C answer is for SIGINT only): exit 143, server gone", async () => {
    const { code, stderr, pids } = await signalled(["--yes", "run", "-e", 'return require("host:mcp-callhang").echo({ text: "x" })'], ["callhang"], "SIGTERM");
    await expectGone(pids);
    expect(code, stderr).toBe(143);
  }, 120_000);

  it("SIGINT during `run` still cancels the run its own way: exit 130, server gone", async () => {
    const { code, stderr, pids } = await signalled(["--yes", "run", "-e", 'return require("host:mcp-callhang").echo({ text: "x" })'], ["callhang"], "SIGINT");
    await expectGone(pids);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("The run was cancelled");
  }, 120_000);
});

describe("a crash ends the servers too", () => {
  it("an uncaught error: the tracked server group is gone once the process has exited", async () => {
    const child = spawn(process.execPath, [CLI[0] as string, join(ROOT, "tests", "cli", "fixtures", "crash-with-server.ts")], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    expect(stderr).toContain("crash for the test");
    expect(code).not.toBe(0);
    await expectGone([Number(stdout.trim())]);
  }, 60_000);
});

describe.skipIf(!hasScript)("Ctrl-C on a real terminal while `mcp approve` starts the server", () => {
  it("exit 130, the server gone", async () => {
    const before = new Set(started(["fresh"]));
    const pty = new PtySession(["mcp", "approve", "fresh"], home.env);
    try {
      await pty.expect('Approve MCP server "fresh"? [y/N]');
      pty.type("y\r");
      await waitFor(() => started(["fresh"]).some((pid) => !before.has(pid)), "fresh to start", 60_000);
      await new Promise((r) => setTimeout(r, 300));
      pty.type("\u0003");
      const code = await Promise.race([pty.exited, new Promise<"still running">((r) => setTimeout(() => r("still running"), 20_000))]);
      if (code === "still running") throw new Error(`mcp approve still ran 20 s after Ctrl-C; the screen:\n${pty.screen}`);
      await expectGone(started(["fresh"]).filter((pid) => !before.has(pid)));
      expect(code, pty.screen).toBe(130);
      expect(pty.screen).toContain("mcpvm: interrupted (Ctrl-C); stopping the MCP server it started");
    } finally {
      pty.kill();
    }
  }, 120_000);
});
