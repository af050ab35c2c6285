import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpServerEntrySchema } from "../../../src/mcp/config/schema.js";
import { ServerStatusStore } from "../../../src/mcp/service/server-status.js";
import { firstLine, missingVariables, serverState, type ServerStateInput } from "../../../src/mcp/service/server-state.js";
import { McpConnectError } from "../../../src/mcp/client-manager/index.js";

/** server-status.json, the last connect result per server: real files, and a cache that never stops anything. */

const entry = (raw: Record<string, unknown>) => mcpServerEntrySchema.parse(raw);
const NODE = entry({ command: "node", args: ["server.js"] });

function home(): string {
  return mkdtempSync(join(tmpdir(), "mcpvm-status-"));
}

describe("ServerStatusStore", () => {
  it("records a failure with its code, message and time, and a success with its tool counts", async () => {
    const file = join(home(), "server-status.json");
    const store = new ServerStatusStore(file, () => undefined, () => new Date("2026-11-01T10:00:00Z"));
    await store.recordFailed("a", NODE, new McpConnectError("MCP_CONNECT_FAILED", "MCP server a exited during start-up (exit code 3)."));
    await store.recordConnected("b", NODE, { toolCount: 9, heldCount: 1 });
    // A second store (another process) reads what the first wrote.
    const other = new ServerStatusStore(file, () => undefined);
    expect(await other.get("a", NODE)).toMatchObject({ result: "failed", at: "2026-11-01T10:00:00.000Z", error: { code: "MCP_CONNECT_FAILED", message: expect.stringContaining("exit code 3") } });
    expect(await other.get("b", NODE)).toMatchObject({ result: "connected", toolCount: 9, heldCount: 1 });
    expect((JSON.parse(readFileSync(file, "utf8")) as { version: number }).version).toBe(1);
  });

  it("a record of an older definition of the server is not shown", async () => {
    const file = join(home(), "server-status.json");
    const store = new ServerStatusStore(file, () => undefined);
    await store.recordConnected("a", NODE, { toolCount: 3, heldCount: 0 });
    expect(await store.get("a", entry({ command: "node", args: ["other.js"] }))).toBeUndefined();
    expect(await store.get("a", NODE)).toBeDefined();
  });

  it("a corrupt file is ignored with one warning, and the next record starts it afresh", async () => {
    const file = join(home(), "server-status.json");
    writeFileSync(file, "{ not json", { mode: 0o600 });
    const warnings: string[] = [];
    const store = new ServerStatusStore(file, (message) => warnings.push(message));
    expect(await store.readAll()).toEqual({});
    expect(await store.readAll()).toEqual({});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`ignoring ${file}`);
    await store.recordConnected("a", NODE, { toolCount: 1, heldCount: 0 });
    expect(await new ServerStatusStore(file, () => undefined).get("a", NODE)).toMatchObject({ toolCount: 1 });
  });

  it("a file that cannot be written (a file where the folder should be) never throws: one warning", async () => {
    const dir = home();
    writeFileSync(join(dir, "blocker"), "a file, not a folder");
    const warnings: string[] = [];
    const store = new ServerStatusStore(join(dir, "blocker", "server-status.json"), (message) => warnings.push(message));
    await expect(store.recordConnected("a", NODE, { toolCount: 1, heldCount: 0 })).resolves.toBeUndefined();
    await expect(store.recordFailed("a", NODE, new Error("x"))).resolves.toBeUndefined();
    expect(await store.readAll()).toEqual({});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("cannot record the connect result of a");
  });
});

describe("serverState: what mcp list says", () => {
  const base: ServerStateInput = {
    name: "memory",
    entry: NODE,
    approval: "approved",
    live: undefined,
    catalog: undefined,
    recorded: undefined,
    pinnedTools: undefined,
    env: {},
    answeredInputs: new Set(),
  };
  const failedRecord = { result: "failed" as const, at: "2026-11-01T10:00:00.000Z", definition: "x", error: { code: "MCP_CONNECT_FAILED", message: "MCP server memory exited during start-up (exit code 1). Last stderr lines:\nboot\nfatal: missing API_KEY" } };

  it("disabled and approval come first", () => {
    expect(serverState({ ...base, entry: entry({ command: "node", enabled: false }), recorded: failedRecord })).toMatchObject({ state: "disabled", next: "mcpvm mcp enable memory" });
    expect(serverState({ ...base, approval: "unapproved" })).toMatchObject({ state: "needs-approval", next: "mcpvm mcp approve memory" });
    expect(serverState({ ...base, approval: "changed" }).detail).toContain("changed since it was approved");
    expect(serverState({ ...base, approval: "error", approvalError: "approved-mcp.json is not valid JSON" })).toMatchObject({ state: "approval-error", detail: "approved-mcp.json is not valid JSON" });
  });

  it("a recorded failure shows the error in one line (with the server's last stderr line) and when", () => {
    const state = serverState({ ...base, recorded: failedRecord });
    expect(state).toMatchObject({ state: "failed", since: "2026-11-01T10:00:00.000Z", next: "mcpvm mcp info memory" });
    expect(state.detail).toBe("MCP server memory exited during start-up (exit code 1). Its last stderr line: fatal: missing API_KEY");
  });

  it("tool counts come from this session, else the record, else the pins", () => {
    expect(serverState({ ...base, pinnedTools: 9 })).toMatchObject({ state: "idle", toolCount: 9 });
    expect(serverState({ ...base, pinnedTools: 9, recorded: { result: "connected", at: "t", definition: "x", toolCount: 8, heldCount: 0 } }).toolCount).toBe(8);
    const live = { name: "memory", state: "connected" as const, transport: "stdio" as const, pid: 1, toolCount: 7, inFlight: 0, failures: 0, lastError: undefined, stderr: [] };
    expect(serverState({ ...base, live, catalog: { tools: 6, held: 0 } })).toMatchObject({ state: "connected", toolCount: 6 });
    expect(serverState({ ...base, live, catalog: { tools: 6, held: 2 } })).toMatchObject({ state: "held", heldCount: 2, next: "mcpvm mcp approve memory --tools" });
  });

  it("unset ${VAR}s and unanswered ${input:…}s are said before an older result", () => {
    const withVar = entry({ command: "node", env: { TOKEN: "${GITHUB_TOKEN}", OTHER: "${UNSET_WITH_DEFAULT:-x}" } });
    expect(missingVariables(withVar, {})).toEqual(["GITHUB_TOKEN"]);
    expect(serverState({ ...base, entry: withVar, recorded: failedRecord })).toMatchObject({ state: "needs-variable", detail: "$GITHUB_TOKEN not set" });
    expect(serverState({ ...base, entry: withVar, env: { GITHUB_TOKEN: "t" } }).state).toBe("idle");
    const withInput = entry({ command: "node", env: { KEY: "${input:api_key}" }, inputs: [{ type: "promptString", id: "api_key", password: true }] });
    expect(serverState({ ...base, entry: withInput })).toMatchObject({ state: "needs-input" });
    expect(serverState({ ...base, entry: withInput, answeredInputs: new Set(["api_key"]) }).state).toBe("idle");
  });

  it("firstLine skips npm's closing boilerplate for the line that says what failed (npx of a package that does not exist)", () => {
    // npm 11's output, verbatim from `npx -y` of a missing package; then npm 8's layout of the same.
    const npm11 = [
      "MCP server ghost exited during start-up (exit code 1). Last stderr lines:",
      "npm error code E404",
      "npm error 404 Not Found - GET https://registry.npmjs.org/@nonexistent-scope-zz%2fmcp-server-does-not-exist",
      "npm error 404",
      "npm error 404  The requested resource '@nonexistent-scope-zz/mcp-server-does-not-exist@*' could not be found or you do not have permission to access it.",
      "npm error 404",
      "npm error 404 Note that you can also install from a",
      "npm error 404 tarball, folder, http url, or git url.",
      "npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-28T11_03_07_063Z-debug-0.log",
    ].join("\n");
    expect(firstLine(npm11)).toBe("MCP server ghost exited during start-up (exit code 1). Its last stderr line: npm error 404  The requested resource '@nonexistent-scope-zz/mcp-server-does-not-exist@*' could not be found or you do not have permission to access it.");
    const npm8 = ["MCP server x exited during start-up (exit code 1). Last stderr lines:", "npm ERR! 404  'nope-zz@*' is not in this registry.", "npm ERR! 404 ", "npm ERR! 404 Note that you can also install from a", "npm ERR! 404 tarball, folder, http url, or git url.", "", "npm ERR! A complete log of this run can be found in:", "npm ERR!     /root/.npm/_logs/2023-01-01T00_00_00_000Z-debug-0.log"].join("\n");
    expect(firstLine(npm8)).toBe("MCP server x exited during start-up (exit code 1). Its last stderr line: npm ERR! 404  'nope-zz@*' is not in this registry.");
    // Only boilerplate: the last line is still shown rather than nothing.
    expect(firstLine("MCP server y exited during start-up (exit code 1). Last stderr lines:\nnpm error A complete log of this run can be found in: /tmp/x-debug-0.log")).toContain("Its last stderr line: npm error A complete log");
  });

  it("firstLine keeps single-line messages and shortens long ones", () => {
    expect(firstLine("one line")).toBe("one line");
    expect(firstLine("x".repeat(500))).toHaveLength(240);
  });
});
