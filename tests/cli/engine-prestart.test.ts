import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prestartEngine } from "../../src/cli/engine-prestart.js";
import { resolveConfigPaths } from "../../src/config/paths.js";
import { McpvmHost } from "../../src/host/index.js";
import type { CreatedEngine } from "../../src/sandbox/select.js";

/**
 * `mcpvm run` starts its sandbox engine before loading the rest of the host (src/cli/engine-prestart.ts)
 * and hands it to McpvmHost as `startedEngine`. The host uses it only when it is the engine its own
 * choice names, and never leaks it: a mismatch or an unused engine is disposed. Real QuickJS workers.
 */
let home: string;
const env = () => ({ MCPVM_HOME: home });

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-prestart-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A disposed QuickJS engine answers a run with a failure instead of running it. */
async function isDisposed(created: CreatedEngine): Promise<boolean> {
  const result = await created.engine.run({ code: "return 1" });
  return !result.ok;
}

describe("the engine mcpvm run starts early", () => {
  it("follows config.json `engine`, and --engine over it", async () => {
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs" }));
    const started = await prestartEngine(resolveConfigPaths(env()), undefined);
    try {
      expect(started?.selection).toMatchObject({ kind: "quickjs", requested: "quickjs" });
      expect(await started?.engine.run({ code: "return 6 * 7" })).toMatchObject({ ok: true, value: 42 });
    } finally {
      await started?.engine.dispose();
    }
    const flagged = await prestartEngine(resolveConfigPaths(env()), "hyperlight");
    // No Hyperlight here: the start fails, which the early start reports as none (the host reports the error itself).
    if (flagged !== undefined) {
      expect(flagged.selection.requested).toBe("hyperlight");
      await flagged.engine.dispose();
    }
  }, 30_000);

  it("resolves to nothing, without throwing, when config.json is not valid (the host reports it)", async () => {
    await writeFile(join(home, "config.json"), "{ not json");
    expect(await prestartEngine(resolveConfigPaths(env()), undefined)).toBeUndefined();
    await expect(McpvmHost.open({ env: env() })).rejects.toMatchObject({ code: expect.stringMatching(/^CONFIG_/) });
  });

  it("the host adopts the started engine when it is the one it would create", async () => {
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs" }));
    const startedEngine = prestartEngine(resolveConfigPaths(env()), undefined);
    const host = await McpvmHost.open({ env: env(), startedEngine });
    try {
      expect(await host.engine()).toBe(await startedEngine);
      expect(await host.run("return 2 + 2")).toMatchObject({ ok: true, value: 4 });
    } finally {
      await host.close();
    }
    expect(await isDisposed((await startedEngine) as CreatedEngine)).toBe(true);
  }, 30_000);

  it("a started engine the host does not want (another choice) is disposed, and the host creates its own", async () => {
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "auto" }));
    const startedEngine = prestartEngine(resolveConfigPaths({ MCPVM_HOME: home }), "quickjs");
    const host = await McpvmHost.open({ env: env(), startedEngine });
    try {
      const own = await host.engine();
      expect(own).not.toBe(await startedEngine);
      expect(own.selection.requested).toBe("auto");
      expect(await isDisposed((await startedEngine) as CreatedEngine)).toBe(true);
    } finally {
      await host.close();
    }
  }, 30_000);

  it("a started engine no run asked for is disposed when the host closes", async () => {
    await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs" }));
    const startedEngine = prestartEngine(resolveConfigPaths(env()), undefined);
    const host = await McpvmHost.open({ env: env(), startedEngine });
    await host.close();
    expect(await isDisposed((await startedEngine) as CreatedEngine)).toBe(true);
  }, 30_000);
});
