import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpApprovalStore, type ApprovalSubject } from "../../../src/mcp/approval/index.js";
import { ApprovalRecheck, RACY_WINDOW_MS, statFileStamp } from "../../../src/mcp/service/index.js";

const subject: ApprovalSubject = { name: "fx", transport: "stdio", command: "node", args: ["server.js"] };

/** A clock that has moved well past the racy window since the file was last written. */
const later = () => Date.now() + RACY_WINDOW_MS * 5;

describe("per-call approval re-check", () => {
  let dir: string;
  let file: string;
  let store: McpApprovalStore;
  let fullChecks: number;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-recheck-"));
    file = join(dir, "approved-mcp.json");
    store = new McpApprovalStore(file);
    await store.approve(subject);
    fullChecks = 0;
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function recheck(now: () => number = later): ApprovalRecheck<ApprovalSubject> {
    return new ApprovalRecheck<ApprovalSubject>({
      file,
      now,
      check: async (_name, entry) => {
        fullChecks += 1;
        await store.require(entry);
      },
    });
  }

  it("reads the approvals file once while it is unchanged", async () => {
    const check = recheck();
    for (let i = 0; i < 5; i += 1) await check.require("fx", subject);
    expect(fullChecks).toBe(1);
  });

  it("passes(): true only after a full check passed against the file's current stamp, false at once after any write", async () => {
    const check = recheck();
    expect(check.passes("fx", subject)).toBe(false);
    await check.require("fx", subject);
    expect(check.passes("fx", subject)).toBe(true);
    // Another entry object for the server (a reloaded config) is not the one that passed.
    expect(check.passes("fx", { ...subject })).toBe(false);
    expect(await new McpApprovalStore(file).revoke("fx")).toBe(true);
    expect(check.passes("fx", subject)).toBe(false);
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "MCP_NOT_APPROVED" });
    expect(check.passes("fx", subject)).toBe(false);
    expect(fullChecks).toBe(2);
  });

  it("a revoke written by another process (another store on the same file) is refused on the very next call", async () => {
    const check = recheck();
    await check.require("fx", subject);
    await check.require("fx", subject);
    expect(await new McpApprovalStore(file).revoke("fx")).toBe(true);
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "MCP_NOT_APPROVED" });
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "MCP_NOT_APPROVED" });
    expect(fullChecks).toBe(3);
  });

  it("an in-place edit (same inode) is seen: a changed approval hash refuses the call", async () => {
    const check = recheck();
    await check.require("fx", subject);
    const edited = JSON.parse(JSON.stringify(await store.list())) as Record<string, { hash: string }>;
    (edited.fx as { hash: string }).hash = "0".repeat(64);
    // Past one tick of the file system's coarse clock, so the edit gets a new mtime (the racy
    // window, disabled here by the clock, covers edits within the same tick).
    await new Promise((resolve) => setTimeout(resolve, 30));
    await writeFile(file, JSON.stringify({ version: 1, servers: edited }));
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "MCP_APPROVAL_CHANGED" });
  });

  it("a chmod that makes the file writable by others is seen: the store refuses it", async () => {
    const check = recheck();
    await check.require("fx", subject);
    await chmod(file, 0o666);
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "STORE_INSECURE" });
  });

  it("a file written within the racy window is never trusted from the cache", async () => {
    const check = recheck(() => Date.now());
    await check.require("fx", subject);
    await check.require("fx", subject);
    await check.require("fx", subject);
    expect(fullChecks).toBe(3);
  });

  it("a failed check is not remembered, and a new entry object for the server is checked in full", async () => {
    const check = recheck();
    const changed: ApprovalSubject = { ...subject, args: ["other.js"] };
    await expect(check.require("fx", changed)).rejects.toMatchObject({ code: "MCP_APPROVAL_CHANGED" });
    await expect(check.require("fx", changed)).rejects.toMatchObject({ code: "MCP_APPROVAL_CHANGED" });
    await check.require("fx", subject);
    await check.require("fx", { ...subject });
    expect(fullChecks).toBe(4);
  });

  it("a missing approvals file means a full check every time (which refuses)", async () => {
    await rm(file);
    const check = recheck();
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "MCP_NOT_APPROVED" });
    await expect(check.require("fx", subject)).rejects.toMatchObject({ code: "MCP_NOT_APPROVED" });
    expect(fullChecks).toBe(2);
  });

  it("forget() drops every remembered pass", async () => {
    const check = recheck();
    await check.require("fx", subject);
    check.forget();
    await check.require("fx", subject);
    expect(fullChecks).toBe(2);
  });

  it("stamps differ after an atomic replace even with identical content", async () => {
    const before = statFileStamp(file);
    await store.approve(subject);
    const after = statFileStamp(file);
    expect(before).toBeDefined();
    expect(after?.key).not.toBe(before?.key);
    expect(statFileStamp(join(dir, "absent.json"))).toBeUndefined();
  });
});
