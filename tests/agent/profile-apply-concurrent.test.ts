import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { bundleCli, type CliBundle } from "../support/cli-bundle.js";
import { captureIo } from "../support/cli-io.js";

/**
 * Two `mcpvm profile apply` at once, each overriding another server's env: the env each server had
 * before any override must survive, so that applying `default` afterwards puts it back. Real
 * processes (the CLI bundled from the sources), released together once both have loaded.
 */

let bundle: CliBundle;
beforeAll(async () => {
  bundle = await bundleCli();
}, 60_000);
afterAll(async () => {
  await bundle.remove();
});

function applyProcess(env: Record<string, string>, profile: string): { ready: Promise<void>; go: () => void; done: Promise<{ code: number; stderr: string }> } {
  const child = spawn(process.execPath, [bundle.file], { env: { ...env, MCPVM_TEST_ARGV: JSON.stringify(["profile", "apply", profile]) }, stdio: ["ignore", "ignore", "pipe", "ipc"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const done = new Promise<{ code: number; stderr: string }>((resolve) => child.once("close", (code) => resolve({ code: code ?? -1, stderr })));
  const ready = new Promise<void>((resolve) => child.once("message", () => resolve()));
  return { ready, go: () => child.send("go"), done };
}

describe("profile apply from two processes at once", () => {
  it("loses no server's own env: after any number of overlapping applies, `default` puts both back", async () => {
    const home = await mkdtemp(join(tmpdir(), "mcpvm-profiles-"));
    const env = { MCPVM_HOME: home, HOME: home, PATH: process.env.PATH ?? "", NO_COLOR: "1" };
    const file = join(home, "config.json");
    try {
      await writeFile(
        file,
        JSON.stringify({
          mcpServers: { s1: { command: "node", args: ["one.js"], env: { A: "own-a" } }, s2: { command: "node", args: ["two.js"], env: { B: "own-b" } } },
          profiles: { p1: { mcpServers: ["s1"], env: { s1: { A: "profile-a" } } }, p2: { mcpServers: ["s2"], env: { s2: { B: "profile-b" } } } },
        }),
        { mode: 0o600 },
      );
      for (let round = 0; round < 8; round += 1) {
        const both = [applyProcess(env, "p1"), applyProcess(env, "p2")];
        await Promise.all(both.map((p) => p.ready));
        for (const p of both) p.go();
        for (const outcome of await Promise.all(both.map((p) => p.done))) expect(outcome.code, outcome.stderr).toBe(0);
      }
      const io = captureIo(env, "", home);
      expect(await runCli(["profile", "apply", "default"], io), io.stderrText()).toBe(0);
      const servers = (JSON.parse(await readFile(file, "utf8")) as { mcpServers: Record<string, { env?: Record<string, string> }> }).mcpServers;
      expect({ s1: servers.s1?.env, s2: servers.s2?.env }).toEqual({ s1: { A: "own-a" }, s2: { B: "own-b" } });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);
});
