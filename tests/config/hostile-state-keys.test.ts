import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runCli } from "../../src/cli/main.js";
import { McpApprovalStore } from "../../src/mcp/approval/store.js";
import { McpPinStore } from "../../src/mcp/pins/store.js";
import { PluginApprovalStore } from "../../src/plugin-system/approval/store.js";
import { isMcpvmError } from "../../src/util/errors.js";
import { JsonFileStore } from "../../src/util/json-store.js";
import { captureIo } from "../support/cli-io.js";

/**
 * State files a person edited by hand (or someone else planted): a `__proto__`, `constructor` or
 * `prototype` key is refused naming the file and the key's JSON path, as config.json refuses it,
 * never dropped (the entry under it would silently not exist, and the next write would lose it for
 * good); a byte that is not UTF-8 is named by its offset, never read as U+FFFD.
 */

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "mcpvm-state-keys-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const HASH = "a".repeat(64);
const record = { hash: HASH, approvedAt: "2026-11-28T10:00:00.000Z", transport: "stdio", summary: "echo" };

async function caught(promise: Promise<unknown>): Promise<Error & { code?: string; data?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof Error)) throw new Error("expected a rejection");
  return error as Error & { code?: string };
}

async function mcpvm(args: readonly string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  const io = captureIo({ MCPVM_HOME: home, HOME: home, PATH: process.env.PATH });
  const code = await runCli(args, io);
  return { code, stderr: io.stderrText(), stdout: io.stdoutText() };
}

describe("reserved keys in state files", () => {
  it("approved-mcp.json with a __proto__ entry: STORE_CORRUPT names the file and servers.__proto__; an approval of another server changes nothing", async () => {
    const file = join(home, "approved-mcp.json");
    const text = `{\n  "version": 1,\n  "servers": {\n    "keep": ${JSON.stringify(record)},\n    "__proto__": ${JSON.stringify(record)}\n  }\n}\n`;
    writeFileSync(file, text, { mode: 0o600 });
    const store = new McpApprovalStore(file);
    const error = await caught(store.list());
    expect(error.code).toBe("STORE_CORRUPT");
    expect(error.message).toContain(`${file} has a key mcpvm refuses: servers.__proto__ (line 5, column 5): the key "__proto__" cannot be used`);
    expect(error.message).toContain("fix it in an editor (nothing was changed)");
    // An update re-reads inside the lock: refused the same way, and the file (with "keep") is untouched.
    expect((await caught(store.revoke("keep"))).code).toBe("STORE_CORRUPT");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("toolsets.json with a nested constructor key: `mcpvm toolset list` exits 3 with the path", async () => {
    const file = join(home, "toolsets.json");
    writeFileSync(file, `${JSON.stringify({ version: 1, toolsets: { mine: { tools: ["a.b"], createdAt: "x", updatedAt: "y", constructor: 1 } } })}\n`, { mode: 0o600 });
    const out = await mcpvm(["toolset", "list"]);
    expect(out.stderr).toContain(`[STORE_CORRUPT] ${file} has a key mcpvm refuses: toolsets.mine.constructor (line 1, column`);
    expect(out.code).toBe(3);
  });

  it("approved-plugins.json with a prototype key: PLUGIN_APPROVALS_CORRUPT names the path", async () => {
    const file = join(home, "approved-plugins.json");
    writeFileSync(file, `{"version": 1, "plugins": {"prototype": {}}}\n`, { mode: 0o600 });
    const error = await caught(new PluginApprovalStore(file).load());
    expect(error.code).toBe("PLUGIN_APPROVALS_CORRUPT");
    expect(error.message).toContain(`${file} has a key mcpvm refuses: plugins.prototype (line 1, column 28)`);
  });

  it("a store never writes a key it would refuse to read: STORE_INVALID, the file unchanged", async () => {
    const file = join(home, "names.json");
    const store = new JsonFileStore<Record<string, number>>(file, z.record(z.string(), z.number()), () => ({}), "a test's names", 1024 * 1024);
    await store.update((draft) => {
      draft.kept = 1;
    });
    const before = readFileSync(file, "utf8");
    const error = await caught(
      store.update((draft) => {
        Object.defineProperty(draft, "constructor", { value: 2, enumerable: true });
      }),
    );
    expect(error.code).toBe("STORE_INVALID");
    expect(error.message).toContain(`constructor: "constructor" cannot be stored in ${file}`);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(await store.read()).toEqual({ kept: 1 });
  });

  it("pins keep a tool schema's `constructor` property (escaped on disk) and still read files written before the escaping", async () => {
    const file = join(home, "mcp-pins.json");
    const pins = new McpPinStore(file);
    const definition = { name: "make", inputSchema: { type: "object", properties: { constructor: { type: "string" }, "%x": { type: "number" } } } };
    await pins.set("srv", { instructionsHash: HASH, tools: { make: { hash: HASH, definition } } });
    expect((await pins.get("srv"))?.tools.make?.definition).toEqual(definition);
    // An older file: the property written as is, read as before (dropped from the shown definition, not refused).
    const legacy = { version: 1, servers: { srv: { instructionsHash: HASH, tools: { make: { hash: HASH, definition: { name: "make", inputSchema: { properties: { constructor: {} } } } } } } } };
    writeFileSync(file, JSON.stringify(legacy), { mode: 0o600 });
    expect((await pins.get("srv"))?.tools.make?.hash).toBe(HASH);
    // The server's name and the tool records themselves are still checked.
    writeFileSync(file, JSON.stringify({ version: 1, servers: { srv: { instructionsHash: HASH, tools: {} } } }).replace('"srv"', '"constructor"'), { mode: 0o600 });
    expect((await caught(pins.get("srv"))).message).toContain("servers.constructor");
  });
});

describe("bytes that are not UTF-8", () => {
  it("config.json: CONFIG_INVALID_JSON says the byte and line, not an unknown key; exit 3", async () => {
    const file = join(home, "config.json");
    // "engïne" saved as Latin-1: ï is the single byte 0xEF.
    writeFileSync(file, Buffer.concat([Buffer.from('{\n  "eng'), Buffer.from([0xef]), Buffer.from('ne": "auto"\n}\n')]), { mode: 0o600 });
    const out = await mcpvm(["doctor"]);
    expect(out.stderr + out.stdout).toContain(`${file} is not valid UTF-8 at byte 8 (line 2); open it in an editor, fix that line and save it as UTF-8`);
    expect(out.stderr + out.stdout).not.toContain("Unrecognized key");
    expect(out.code).toBe(3);
  });

  it("a state file: STORE_CORRUPT with the byte; a valid multi-byte character and a byte-order mark still read", async () => {
    const file = join(home, "approved-mcp.json");
    writeFileSync(file, Buffer.concat([Buffer.from('{"version": 1, "servers": {}, "x'), Buffer.from([0xc3, 0x28]), Buffer.from('": 1}')]), { mode: 0o600 });
    const error = await caught(new McpApprovalStore(file).list());
    expect(isMcpvmError(error) && error.code).toBe("STORE_CORRUPT");
    expect(error.message).toContain(`${file} is not valid UTF-8 at byte 32 (line 1)`);
    writeFileSync(file, `\ufeff${JSON.stringify({ version: 1, servers: { keep: { ...record, summary: "échos ✓" } } })}`, { mode: 0o600 });
    expect((await new McpApprovalStore(file).list()).keep?.summary).toBe("échos ✓");
  });

  it("approved-plugins.json: PLUGIN_APPROVALS_CORRUPT with the byte", async () => {
    const file = join(home, "approved-plugins.json");
    writeFileSync(file, Buffer.from([0x7b, 0x0a, 0x80, 0x7d]), { mode: 0o600 });
    expect((await caught(new PluginApprovalStore(file).load())).message).toContain(`${file} is not valid UTF-8 at byte 2 (line 2)`);
  });
});

describe("a state file cut short or replaced", () => {
  it("empty: STORE_CORRUPT says it is empty and what to do, not the config's hint \"an empty config is {}\"", async () => {
    const file = join(home, "approved-mcp.json");
    writeFileSync(file, "", { mode: 0o600 });
    const error = await caught(new McpApprovalStore(file).list());
    expect(error.code).toBe("STORE_CORRUPT");
    expect(error.message).toContain(`${file} is empty. It holds your MCP server approvals`);
    expect(error.message).not.toContain("empty config");
  });

  it("a folder in its place: moved aside (mv … .broken), never `rm -r`", async () => {
    const file = join(home, "toolsets.json");
    mkdirSync(file);
    const out = await mcpvm(["toolset", "list"]);
    expect(out.stderr).toContain(`${file} is not a regular file`);
    expect(out.stderr).toContain(`mv ${file} ${file}.broken`);
    expect(out.stderr).not.toContain("rm -r");
    expect(out.code).toBe(3);
  });
});
