import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isMaskedValue } from "../../../src/mcp/config/secret-values.js";
import {
  approvalHash,
  McpApprovalError,
  McpApprovalStore,
  renderApprovalPrompt,
  type ApprovalSubject,
} from "../../../src/mcp/approval/index.js";

const base: ApprovalSubject = {
  name: "github",
  transport: "stdio",
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-github"],
  env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", LOG: "debug" },
  cwd: "/srv",
  allowTools: ["list_issues"],
};

describe("approval hash", () => {
  it("changes when any part of the launch definition changes", () => {
    const variants: ApprovalSubject[] = [
      { ...base, command: "node" },
      { ...base, args: ["-y", "@modelcontextprotocol/server-github@1"] },
      { ...base, env: { ...base.env, EXTRA: "1" } },
      { ...base, env: { ...base.env, LOG: "trace" } },
      { ...base, cwd: "/tmp" },
      { ...base, allowTools: ["list_issues", "create_issue"] },
      { ...base, denyTools: ["delete_repo"] },
      { ...base, confirm: "never" },
      { ...base, transport: "http", url: "https://example.test/mcp" },
      { ...base, name: "github2" },
    ];
    const hashes = new Set([approvalHash(base), ...variants.map(approvalHash)]);
    expect(hashes.size).toBe(variants.length + 1);
  });

  it("covers header values, not only header names", () => {
    const remote: ApprovalSubject = { name: "api", transport: "http", url: "https://api.test/mcp", headers: { Authorization: "Bearer a" } };
    expect(approvalHash(remote)).not.toBe(approvalHash({ ...remote, headers: { Authorization: "Bearer b" } }));
  });

  it("is unambiguous: moving a boundary between args changes the hash", () => {
    expect(approvalHash({ ...base, args: ["a b"] })).not.toBe(approvalHash({ ...base, args: ["a", "b"] }));
    expect(approvalHash({ ...base, args: ["ab"] })).not.toBe(approvalHash({ ...base, args: ["a", "b"] }));
  });

  it("does not depend on the order of env keys or filter entries", () => {
    const reordered: ApprovalSubject = { ...base, env: { LOG: "debug", GITHUB_TOKEN: "${GITHUB_TOKEN}" } };
    expect(approvalHash(reordered)).toBe(approvalHash(base));
  });
});

describe("approval prompt", () => {
  it("shows command and args verbatim, env names with masked values, and the not-sandboxed warning", () => {
    const text = renderApprovalPrompt({ ...base, env: { API_KEY: "supersecretvalue" } }, approvalHash(base));
    expect(text).toContain('command: "npx"');
    expect(text).toContain('args:    ["-y","@modelcontextprotocol/server-github"]');
    expect(text).toContain("API_KEY=****");
    expect(text).not.toContain("supersecretvalue");
    expect(text).toContain("runs as an ordinary OS process");
    expect(renderApprovalPrompt({ ...base, confirm: "never" }, approvalHash(base))).toContain("confirm:   never — calls run without asking");
  });

  it("shows plain paths and ordinary values in full, masks what looks secret, and never shows a value the redactor masks", () => {
    const env = {
      MEMORY_FILE_PATH: "/home/u/mem.json",
      LOG_LEVEL: "debug",
      DATA_DIR: "/srv/my data/graphs",
      PORT_OFFSET: "2",
      GITHUB_TOKEN: "ghp_abcdefgh12345678",
      DB_PASSWORD: "hunter2hunter",
      API_KEY: "supersecretvalue",
      SIGNING_SECRET: "/home/u/secret.pem",
      UPSTREAM: "aB3dE5gH7jK9mN1pQ3rS",
      DSN_URL: "postgres://app:pw-in-url@db.test/app",
    };
    const text = renderApprovalPrompt({ ...base, env }, approvalHash(base));
    const line = text.split("\n").find((l) => l.startsWith("  env:")) ?? "";
    expect(line).toContain("MEMORY_FILE_PATH=/home/u/mem.json");
    expect(line).toContain("LOG_LEVEL=debug");
    expect(line).toContain('DATA_DIR="/srv/my data/graphs"');
    expect(line).toContain("PORT_OFFSET=2");
    for (const name of ["GITHUB_TOKEN", "DB_PASSWORD", "API_KEY", "SIGNING_SECRET", "UPSTREAM", "DSN_URL"]) expect(line).toContain(`${name}=****`);
    for (const [name, value] of Object.entries(env)) {
      // What logs, audit entries and the model see is masked by isMaskedValue: the prompt shows no value it masks.
      if (isMaskedValue(name, value)) expect(text).not.toContain(value);
      else expect(line).toContain(value);
    }
  });

  it("shows URL and header names, never header values", () => {
    const text = renderApprovalPrompt({ name: "api", transport: "http", url: "https://api.test/mcp", headers: { Authorization: "Bearer tok123456" } }, "0".repeat(64));
    expect(text).toContain("url:     https://api.test/mcp");
    expect(text).toContain("Authorization: ****");
    expect(text).not.toContain("tok123456");
  });
});

describe("McpApprovalStore", () => {
  let dir: string;
  let store: McpApprovalStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-approval-"));
    store = new McpApprovalStore(join(dir, "approved-mcp.json"), () => new Date("2026-01-02T03:04:05Z"));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it("refuses an unapproved server with MCP_NOT_APPROVED and the prompt in the error data", async () => {
    const error = await store.require(base).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpApprovalError);
    expect((error as McpApprovalError).code).toBe("MCP_NOT_APPROVED");
    expect((error as McpApprovalError).message).toContain("mcpvm mcp approve github");
    // A pure reference is shown as written (it is not a secret, and the person should see it is not a literal).
    expect(String((error as McpApprovalError).data?.prompt)).toContain("GITHUB_TOKEN=${GITHUB_TOKEN}");
  });

  it("approves into a 0600 file, and any later change to the definition needs re-approval", async () => {
    await store.approve(base);
    await expect(store.require(base)).resolves.toBeUndefined();
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    const changed = { ...base, args: [...(base.args ?? []), "--evil"] };
    await expect(store.require(changed)).rejects.toMatchObject({ code: "MCP_APPROVAL_CHANGED" });
  });

  it("revoke removes the approval", async () => {
    await store.approve(base);
    expect(await store.revoke("github")).toBe(true);
    expect(await store.revoke("github")).toBe(false);
    expect((await store.status(base)).state).toBe("unapproved");
  });

  it("reports a corrupt file instead of resetting it, and keeps its content", async () => {
    await writeFile(store.file, "{ not json", { mode: 0o600 });
    await expect(store.require(base)).rejects.toMatchObject({ code: "STORE_CORRUPT" });
    await expect(store.approve(base)).rejects.toMatchObject({ code: "STORE_CORRUPT" });
    expect(await readFile(store.file, "utf8")).toBe("{ not json");
  });

  it("refuses to trust an approvals file other users can write", async () => {
    await store.approve(base);
    await chmod(store.file, 0o666);
    await expect(store.require(base)).rejects.toMatchObject({ code: "STORE_INSECURE" });
  });
});
