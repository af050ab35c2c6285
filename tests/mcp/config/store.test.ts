import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it, expect } from "vitest";
import {
  addMcpServer,
  DEFAULT_NATIVE_PLUGIN_NAMES,
  getMcpServer,
  importMcpServers,
  listMcpServers,
  parseImportText,
  removeMcpServer,
  setMcpServerEnabled,
} from "../../../src/mcp/config/index.js";

const options = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };
let dir = "";
let file = "";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-config-"));
  file = join(dir, "config.json");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readJson = async (): Promise<unknown> => JSON.parse(await readFile(file, "utf8"));

describe("the mcpServers section of config.json on disk", () => {
  it("lists nothing when config.json does not exist yet", async () => {
    expect(await listMcpServers(file, options)).toEqual({});
  });

  it("adds a server, validated, and writes the file with mode 0600", async () => {
    const added = await addMcpServer(file, "memory", { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] }, options);
    expect(added).toEqual({ type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], enabled: true });
    expect(await readJson()).toEqual({ mcpServers: { memory: added } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await getMcpServer(file, "memory", options)).toEqual(added);
  });

  it("keeps the other sections of config.json and the other servers as they were written", async () => {
    await writeFile(file, JSON.stringify({ engine: "quickjs", plugins: { "fs-read": { enabled: true } }, mcpServers: { legacy: { url: "http://127.0.0.1:9/sse" } } }));
    await addMcpServer(file, "time", { command: "uvx", args: ["mcp-server-time"] }, options);
    expect(await readJson()).toEqual({
      engine: "quickjs",
      plugins: { "fs-read": { enabled: true } },
      mcpServers: { legacy: { url: "http://127.0.0.1:9/sse" }, time: { type: "stdio", command: "uvx", args: ["mcp-server-time"], enabled: true } },
    });
  });

  it("refuses to add a name that exists unless told to overwrite", async () => {
    await addMcpServer(file, "memory", { command: "npx" }, options);
    await expect(addMcpServer(file, "memory", { command: "node" }, options)).rejects.toMatchObject({
      code: "MCP_CONFIG_SERVER_EXISTS",
      message: `MCP server "memory" already exists in ${file}; choose another name, or pass --overwrite to replace it`,
    });
    await addMcpServer(file, "memory", { command: "node" }, { ...options, overwrite: true });
    expect((await getMcpServer(file, "memory", options)).command).toBe("node");
  });

  it("writes nothing when validation fails", async () => {
    await addMcpServer(file, "memory", { command: "npx" }, options);
    const before = await readFile(file, "utf8");
    await expect(addMcpServer(file, "fetch", { command: "uvx" }, options)).rejects.toMatchObject({ code: "MCP_CONFIG_INVALID" });
    await expect(addMcpServer(file, "web", { url: "ftp://example.com" }, options)).rejects.toMatchObject({ code: "MCP_CONFIG_INVALID" });
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("removes a server, and says so when there is none by that name", async () => {
    await addMcpServer(file, "a", { command: "x" }, options);
    await addMcpServer(file, "b", { command: "y" }, options);
    await removeMcpServer(file, "a", options);
    expect(Object.keys(await listMcpServers(file, options))).toEqual(["b"]);
    await expect(removeMcpServer(file, "a", options)).rejects.toMatchObject({
      code: "MCP_CONFIG_SERVER_NOT_FOUND",
      message: `no MCP server "a" in ${file}; did you mean "b"? See the configured names with \`mcpvm mcp list\``,
    });
    await expect(getMcpServer(file, "a", options)).rejects.toMatchObject({ code: "MCP_CONFIG_SERVER_NOT_FOUND" });
  });

  it("enables and disables a server in place", async () => {
    await writeFile(file, JSON.stringify({ mcpServers: { github: { url: "https://api.githubcopilot.com/mcp/" } } }));
    const disabled = await setMcpServerEnabled(file, "github", false, options);
    expect(disabled.enabled).toBe(false);
    expect(await readJson()).toEqual({ mcpServers: { github: { url: "https://api.githubcopilot.com/mcp/", enabled: false } } });
    expect((await setMcpServerEnabled(file, "github", true, options)).enabled).toBe(true);
    await expect(setMcpServerEnabled(file, "nope", true, options)).rejects.toMatchObject({ code: "MCP_CONFIG_SERVER_NOT_FOUND" });
  });

  it("reports an invalid file by path and rule, and lets the broken entry be removed", async () => {
    await writeFile(file, JSON.stringify({ mcpServers: { good: { command: "x" }, bad: { type: "http" } } }));
    await expect(listMcpServers(file, options)).rejects.toMatchObject({
      code: "MCP_CONFIG_INVALID",
      message: `${file} is not valid:\n  - mcpServers.bad.url: an http server needs "url" [remote-url]\nFix it in an editor, or drop a broken entry with \`mcpvm mcp remove bad\``,
    });
    await expect(addMcpServer(file, "other", { command: "y" }, options)).rejects.toMatchObject({ code: "MCP_CONFIG_INVALID" });
    await removeMcpServer(file, "bad", options);
    expect(Object.keys(await listMcpServers(file, options))).toEqual(["good"]);
  });

  it("serialises concurrent changes so none is lost", async () => {
    await Promise.all(["a", "b", "c", "d"].map((name) => addMcpServer(file, name, { command: name }, options)));
    expect(Object.keys(await listMcpServers(file, options)).sort()).toEqual(["a", "b", "c", "d"]);
  });
});

describe("importing into config.json", () => {
  const text = JSON.stringify({ mcpServers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] }, github: { url: "https://api.githubcopilot.com/mcp/" } } });

  it("adds new servers and keeps a conflicting existing one, reporting it", async () => {
    await addMcpServer(file, "memory", { command: "node", args: ["my-memory.js"] }, options);
    const result = await importMcpServers(file, parseImportText("claude.json", text, options), options);
    expect(result.added).toEqual(["github"]);
    expect(result.conflicts.map((conflict) => conflict.name)).toEqual(["memory"]);
    expect((await getMcpServer(file, "memory", options)).command).toBe("node");
    expect((await getMcpServer(file, "github", options)).type).toBe("http");
  });

  it("replaces conflicting servers with the overwrite option", async () => {
    await addMcpServer(file, "memory", { command: "node" }, options);
    const result = await importMcpServers(file, parseImportText("claude.json", text, options), { ...options, overwrite: true });
    expect(result.overwritten).toEqual(["memory"]);
    expect((await getMcpServer(file, "memory", options)).command).toBe("npx");
  });

  // This used to write nothing and fail with "config.json is not valid" although the file was fine;
  // now what fits under the limit is imported and the rest is reported as left out.
  it("imports what fits under the server limit (20) and reports the rest as left out", async () => {
    for (let i = 0; i < 19; i += 1) await addMcpServer(file, `s${i}`, { command: "x" }, options);
    const result = await importMcpServers(file, parseImportText("claude.json", text, options), options);
    expect(result.added).toEqual(["memory"]);
    expect(result.leftOut).toEqual([{ name: "github", reason: "at most 20 MCP servers can be configured; config.json had 19, so 1 of the 2 new servers fit" }]);
    expect(Object.keys(await listMcpServers(file, options))).toHaveLength(20);
  });

  it("writes nothing on a dry run", async () => {
    await addMcpServer(file, "s0", { command: "x" }, options);
    const before = await readFile(file, "utf8");
    const result = await importMcpServers(file, parseImportText("claude.json", text, options), { ...options, dryRun: true });
    expect(result.added).toEqual(["memory", "github"]);
    expect(await readFile(file, "utf8")).toBe(before);
  });
});
