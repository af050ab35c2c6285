import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { ROOT } from "./repl-driver.js";

/**
 * `mcpvm profile apply` killed (SIGKILL) at each write of profile-state.json: whatever it left,
 * applying `default` afterwards gives every server its own env back. A real process from the
 * sources (tests/agent/fixtures/apply-then-hang.ts stops it at the write), real files.
 */
const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const HANG = join(ROOT, "tests", "agent", "fixtures", "apply-then-hang.ts");

async function cli(env: Record<string, string>, home: string, argv: string[]): Promise<void> {
  const io = captureIo(env, "", home);
  expect(await runCli(argv, io), io.stderrText()).toBe(0);
}

/** Runs the hanging apply; kills it once it waits at state write number `at`. Resolves whether it was killed there. */
function applyKilledAt(env: Record<string, string>, at: number, profile: string): Promise<boolean> {
  const child = spawn(process.execPath, [VITE_NODE, HANG, "--", profile], { env: { ...env, HANG_AT_STATE_WRITE: String(at) }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve) => {
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("STATE_PENDING")) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    child.once("close", () => resolve(killed));
  });
}

describe("profile apply killed mid-way", () => {
  it("at any write of its state, loses no server's own env", async () => {
    let killedAtLeastOnce = false;
    for (const at of [1, 2]) {
      const home = await mkdtemp(join(tmpdir(), "mcpvm-profile-crash-"));
      const env = { MCPVM_HOME: home, HOME: home, PATH: process.env.PATH ?? "", NO_COLOR: "1" };
      try {
        await writeFile(
          join(home, "config.json"),
          JSON.stringify({
            mcpServers: { s1: { command: "node", args: ["one.js"], env: { A: "own-a" } }, s2: { command: "node", args: ["two.js"], env: { B: "own-b" } } },
            profiles: { p1: { mcpServers: ["s1"], env: { s1: { A: "profile-a" } } }, p2: { mcpServers: ["s2"], env: { s2: { B: "profile-b" } } } },
          }),
          { mode: 0o600 },
        );
        await cli(env, home, ["profile", "apply", "p1"]);
        killedAtLeastOnce = (await applyKilledAt(env, at, "p2")) || killedAtLeastOnce;
        await cli(env, home, ["profile", "apply", "default"]);
        const servers = (JSON.parse(await readFile(join(home, "config.json"), "utf8")) as { mcpServers: Record<string, { env?: Record<string, string> }> }).mcpServers;
        expect({ at, s1: servers.s1?.env, s2: servers.s2?.env }).toEqual({ at, s1: { A: "own-a" }, s2: { B: "own-b" } });
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    }
    expect(killedAtLeastOnce).toBe(true);
  }, 120_000);
});
