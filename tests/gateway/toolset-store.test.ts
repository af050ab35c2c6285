import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolsetStore } from "../../src/gateway/index.js";

describe("toolset store", () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-toolsets-"));
    file = join(dir, "toolsets.json");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("saves, lists, replaces and deletes toolsets in a 0600 file", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const store = new ToolsetStore(file, () => now);
    await store.save({ name: "dev", tools: ["git.status", "git.status", "memory.read_graph"], description: "daily" });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    now = new Date("2026-01-02T00:00:00Z");
    await store.save({ name: "dev", tools: ["git.log"] });
    await store.save({ name: "a", tools: ["x.y"] });
    expect(await store.list()).toEqual([
      { name: "a", tools: ["x.y"], createdAt: "2026-01-02T00:00:00.000Z", updatedAt: "2026-01-02T00:00:00.000Z" },
      { name: "dev", tools: ["git.log"], createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-02T00:00:00.000Z" },
    ]);
    await store.delete("a");
    await expect(store.get("a")).rejects.toMatchObject({ code: "GATEWAY_TOOLSET_UNKNOWN" });
    await expect(store.delete("a")).rejects.toMatchObject({ code: "GATEWAY_TOOLSET_UNKNOWN" });
  });

  it("refuses bad names, empty toolsets and malformed references", async () => {
    const store = new ToolsetStore(file);
    await expect(store.save({ name: "../x", tools: ["a.b"] })).rejects.toMatchObject({ code: "GATEWAY_TOOLSET_INVALID" });
    await expect(store.save({ name: "ok", tools: [] })).rejects.toMatchObject({ code: "GATEWAY_TOOLSET_INVALID" });
    await expect(store.save({ name: "ok", tools: ["nodot"] })).rejects.toMatchObject({ code: "GATEWAY_TOOLSET_INVALID" });
  });

  it("reports a corrupt file instead of resetting it", async () => {
    await writeFile(file, "{ not json", { mode: 0o600 });
    await expect(new ToolsetStore(file).list()).rejects.toMatchObject({ code: "STORE_CORRUPT" });
  });
});
