import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prestartEngine } from "../../src/cli/engine-prestart.js";
import { prespawnForRun } from "../../src/cli/prespawn.js";
import { resolveConfigPaths } from "../../src/config/paths.js";
import { prespawnQuickJsWorker, takePrespawnedWorker } from "../../src/sandbox/engines/quickjs-prespawn.js";
import { sharedQuickJsWorkers } from "../../src/sandbox/engines/quickjs-shared-pool.js";

/**
 * bin/mcpvm.js starts `mcpvm run`'s QuickJS worker thread before the CLI loads (src/cli/prespawn.ts);
 * the engine's first thread takes it (src/sandbox/engines/quickjs-prespawn.ts). Real worker threads.
 */
let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-prespawn-"));
});
afterEach(async () => {
  // Nothing left waiting for the next test.
  await takePrespawnedWorker(8)?.terminate();
  await rm(home, { recursive: true, force: true });
});

/** Whether prespawnForRun started a thread for this command line (taking it, so that each case starts clean). */
async function prespawns(argv: string[]): Promise<boolean> {
  prespawnForRun(argv, { MCPVM_HOME: home });
  const worker = takePrespawnedWorker(8);
  await worker?.terminate();
  return worker !== undefined;
}

describe("the worker thread bin/mcpvm.js starts first", () => {
  it("is started for `mcpvm run` on the worker engine only, the command line read as runCli reads it", async () => {
    expect(await prespawns(["run", "-e", "return 1"])).toBe(true);
    expect(await prespawns(["--json", "--engine", "quickjs", "run", "script.js"])).toBe(true);
    expect(await prespawns(["--engine=auto", "-y", "run", "-e", "1"])).toBe(true);
    expect(await prespawns(["--engine", "quickjs-inline", "run", "-e", "1"])).toBe(false);
    expect(await prespawns(["--engine=hyperlight", "run", "-e", "1"])).toBe(false);
    expect(await prespawns(["run", "--help"])).toBe(false);
    expect(await prespawns(["mcp", "run"])).toBe(false);
    expect(await prespawns(["--log-level", "run", "doctor"])).toBe(false);
    expect(await prespawns(["--", "run"])).toBe(false);
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "hyperlight" }));
    expect(await prespawns(["run", "-e", "1"])).toBe(false);
    // --engine wins over config.json, as it does for the engine itself.
    expect(await prespawns(["--engine", "quickjs", "run", "-e", "1"])).toBe(true);
    // config.json is only guessed from here: an unreadable one means the default engine.
    await writeFile(join(home, "config.json"), "{ not json");
    expect(await prespawns(["run", "-e", "1"])).toBe(true);
  }, 30_000);

  it("is taken once, by a thread of the same stack size", async () => {
    prespawnQuickJsWorker(4);
    expect(takePrespawnedWorker(8)).toBeUndefined();
    const taken = takePrespawnedWorker(4);
    expect(taken).toBeDefined();
    expect(takePrespawnedWorker(4)).toBeUndefined();
    await taken?.terminate();
  }, 30_000);

  it("runs the engine's first run: the thread the pool starts is the prespawned one", async () => {
    prespawnQuickJsWorker(8);
    const before = sharedQuickJsWorkers().spawned;
    const started = await prestartEngine(resolveConfigPaths({ MCPVM_HOME: home }), "quickjs");
    try {
      expect(await started?.engine.run({ code: "return 6 * 7" })).toMatchObject({ ok: true, value: 42 });
      // A guest failure and a second run on the same thread behave as on any other.
      expect(await started?.engine.run({ code: "throw new Error('boom')" })).toMatchObject({ ok: false });
      expect(await started?.engine.run({ code: "return [1, 2].map((n) => n * 2)" })).toMatchObject({ ok: true, value: [2, 4] });
    } finally {
      await started?.engine.dispose();
    }
    expect(sharedQuickJsWorkers().spawned - before).toBe(1);
    expect(takePrespawnedWorker(8)).toBeUndefined();
  }, 30_000);
});
