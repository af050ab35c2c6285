import { readFile, stat, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approvalHash, PluginApprovalStore, type ApprovalRecord, type ApprovalSubject } from "../../src/plugin-system/index.js";
import { makeWorld, type TempWorld } from "./helpers.js";

const subject: ApprovalSubject = {
  name: "echo",
  source: "native",
  manifestText: '{"name":"echo"}',
  declarations: { path: "module.d.ts", text: "declare module 'host:echo' {}" },
  files: [
    { path: "index.ts", sha256: "a".repeat(64) },
    { path: "lib/util.ts", sha256: "b".repeat(64) },
  ],
};

const record: ApprovalRecord = {
  hash: "c".repeat(64),
  approvedAt: "2026-01-02T03:04:05.000Z",
  approvedBy: "alice",
  source: "user",
  version: "1.0.0",
  audit: { files: 2, findings: 1, byRisk: { low: 0, medium: 1, high: 0, critical: 0 }, highestRisk: "medium", undeclaredCapabilities: [], rules: ["fs-read"] },
};

describe("the approval hash", () => {
  it("is a stable SHA-256 that does not depend on file order", () => {
    const hash = approvalHash(subject);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(approvalHash({ ...subject, files: [...subject.files].reverse() })).toBe(hash);
  });

  it("changes when anything it covers changes", () => {
    const hash = approvalHash(subject);
    const variants: ApprovalSubject[] = [
      { ...subject, name: "echo2" },
      { ...subject, source: "user" },
      { ...subject, manifestText: '{"name":"echo" }' },
      { ...subject, declarations: { path: "module.d.ts", text: "declare module 'host:echo' { }" } },
      { ...subject, declarations: undefined },
      { ...subject, files: [subject.files[0]!, { path: "lib/util.ts", sha256: "d".repeat(64) }] },
      { ...subject, files: [subject.files[0]!, { path: "lib/utils.ts", sha256: "b".repeat(64) }] },
      { ...subject, files: [subject.files[0]!] },
    ];
    for (const variant of variants) expect(approvalHash(variant)).not.toBe(hash);
  });

  it("cannot be forged by moving a delimiter between path and digest", () => {
    const a = approvalHash({ ...subject, files: [{ path: "a", sha256: "b" }] });
    const b = approvalHash({ ...subject, files: [{ path: "a\",\"b", sha256: "" }] });
    expect(a).not.toBe(b);
  });
});

describe("the approvals file", () => {
  let world: TempWorld;
  let store: PluginApprovalStore;
  beforeEach(async () => {
    world = await makeWorld();
    store = new PluginApprovalStore(world.paths.approvedPluginsFile);
  });
  afterEach(() => world.cleanup());

  it("starts empty when the file does not exist", async () => {
    expect(await store.load()).toEqual({ version: 1, plugins: {} });
    expect(await store.get("echo")).toBeUndefined();
  });

  it("stores who approved, when, and the audit summary, in a 0600 file", async () => {
    await store.set("echo", record);
    expect(await store.get("echo")).toEqual(record);
    expect((await stat(world.paths.approvedPluginsFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(world.paths.approvedPluginsFile, "utf8"))).toEqual({ version: 1, plugins: { echo: record } });
  });

  it("keeps concurrent approvals and removes one on revoke", async () => {
    await Promise.all(["a", "b", "c", "d"].map((name) => store.set(name, record)));
    expect(Object.keys((await store.load()).plugins).sort()).toEqual(["a", "b", "c", "d"]);
    expect(await store.remove("b")).toBe(true);
    expect(await store.remove("b")).toBe(false);
    expect(Object.keys((await store.load()).plugins).sort()).toEqual(["a", "c", "d"]);
  });

  it("reports a corrupted file as an error and never resets it", async () => {
    await writeFile(world.paths.approvedPluginsFile, "{ not json");
    await expect(store.load()).rejects.toMatchObject({ code: "PLUGIN_APPROVALS_CORRUPT" });
    await expect(store.set("echo", record)).rejects.toMatchObject({ code: "PLUGIN_APPROVALS_CORRUPT" });
    expect(await readFile(world.paths.approvedPluginsFile, "utf8")).toBe("{ not json");
  });

  it("names the JSON path of a tampered record", async () => {
    await writeFile(world.paths.approvedPluginsFile, JSON.stringify({ version: 1, plugins: { echo: { ...record, hash: "x" } } }));
    const error = await store.load().then(
      () => undefined,
      (caught: unknown) => caught as { code: string; message: string },
    );
    expect(error?.code).toBe("PLUGIN_APPROVALS_CORRUPT");
    expect(error?.message).toContain(`${world.paths.approvedPluginsFile} is not valid:`);
    expect(error?.message).toContain("plugins.echo.hash: must be a SHA-256 hex digest");
  });

  it("reports an unreadable file with its own code", async () => {
    // A folder where the file should be: reading it fails with EISDIR, not ENOENT.
    const unreadable = new PluginApprovalStore(world.root);
    await expect(unreadable.load()).rejects.toMatchObject({ code: "PLUGIN_APPROVALS_UNREADABLE" });
  });
});
