import { describe, it, expect } from "vitest";
import { DEFAULT_NATIVE_PLUGIN_NAMES, McpConfigError, parseMcpServerEntry, parseMcpServers } from "../../../src/mcp/config/index.js";

const context = { file: "/home/u/.mcpvm/config.json", nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };

function failure(raw: unknown): McpConfigError {
  try {
    parseMcpServers(raw, context);
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error("expected MCP_CONFIG_INVALID");
}

function rules(raw: unknown): { path: string; rule: string }[] {
  return failure(raw).issues.map(({ path, rule }) => ({ path, rule }));
}

describe("the mcpServers section of config.json", () => {
  it("accepts stdio, http and sse servers and fills in type and enabled", () => {
    const servers = parseMcpServers(
      {
        memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
        github: { type: "http", url: "https://api.githubcopilot.com/mcp/", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" }, enabled: false },
        legacy: { url: "http://127.0.0.1:3001/sse" },
        remote: { url: "https://mcp.example.com/mcp", confirm: "always", callTimeoutMs: 5000 },
      },
      context,
    );
    expect(servers.memory).toEqual({ type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"], enabled: true });
    expect(servers.github?.type).toBe("http");
    expect(servers.github?.enabled).toBe(false);
    expect(servers.legacy?.type).toBe("sse");
    expect(servers.remote).toEqual({ type: "http", url: "https://mcp.example.com/mcp", confirm: "always", callTimeoutMs: 5000, enabled: true });
  });

  it("treats a missing section as no servers", () => {
    expect(parseMcpServers(undefined, context)).toEqual({});
  });

  it("names the file, the JSON path and the rule in every message", () => {
    const error = failure({ "My Server": { command: "x" }, github: { type: "http", url: "ftp://example.com" } });
    expect(error.code).toBe("MCP_CONFIG_INVALID");
    expect(error.message).toBe(
      [
        "/home/u/.mcpvm/config.json is not valid:",
        '  - mcpServers["My Server"]: server names must match /^[a-z][a-z0-9-]*$/ (a lowercase letter, then lowercase letters, digits or dashes) [server-name]',
        "  - mcpServers.github.url: must use http: or https:, not ftp: [url-scheme]",
        "Fix them in an editor, or drop a broken entry with `mcpvm mcp remove 'My Server'`, `mcpvm mcp remove github`",
      ].join("\n"),
    );
    expect(error.issues).toEqual([
      { path: 'mcpServers["My Server"]', rule: "server-name", message: "server names must match /^[a-z][a-z0-9-]*$/ (a lowercase letter, then lowercase letters, digits or dashes)", server: "My Server" },
      { path: "mcpServers.github.url", rule: "url-scheme", message: "must use http: or https:, not ftp:", server: "github" },
    ]);
  });

  it("names `mcpvm mcp remove` for at most three broken entries of config.json, and none for another file's section", () => {
    const four = failure({ a: { command: 1 }, b: { command: 1 }, c: { command: 1 }, d: { command: 1 } });
    expect(four.message.split("\n").at(-1)).toBe("Fix them in an editor, or drop a broken entry with `mcpvm mcp remove a`, `mcpvm mcp remove b`, `mcpvm mcp remove c` (and 1 more)");
    const imported = (() => {
      try {
        parseMcpServers({ a: { command: 1 } }, { ...context, file: "/tmp/mcp.json", pathPrefix: ["servers"] });
      } catch (error) {
        return error as McpConfigError;
      }
      throw new Error("expected MCP_CONFIG_INVALID");
    })();
    expect(imported.message).not.toContain("mcpvm mcp remove");
    expect(imported.issues).toEqual([expect.objectContaining({ path: "servers.a.command", server: "a" })]);
  });

  it("rejects names of native plugins (the list is a parameter) and reserved prefixes and names", () => {
    expect(rules({ fetch: { command: "x" }, "fs-read": { command: "x" }, "mcp-github": { command: "x" }, mcpx: { command: "x" }, then: { command: "x" }, constructor: { command: "x" } })).toEqual([
      { path: "mcpServers.fetch", rule: "native-plugin-name" },
      { path: 'mcpServers["fs-read"]', rule: "native-plugin-name" },
      { path: 'mcpServers["mcp-github"]', rule: "reserved-prefix" },
      { path: "mcpServers.mcpx", rule: "reserved-prefix" },
      { path: "mcpServers.then", rule: "reserved-name" },
      { path: "mcpServers.constructor", rule: "reserved-name" },
    ]);
    expect(parseMcpServers({ fetch: { command: "x" } }, { ...context, nativePluginNames: ["fs-read"] })).toHaveProperty("fetch");
  });

  it("rejects host: and ha: names twice over: bad characters and a reserved prefix", () => {
    expect(rules({ "host:x": { command: "x" }, "ha:y": { command: "y" } })).toEqual([
      { path: 'mcpServers["host:x"]', rule: "server-name" },
      { path: 'mcpServers["host:x"]', rule: "reserved-prefix" },
      { path: 'mcpServers["ha:y"]', rule: "server-name" },
      { path: 'mcpServers["ha:y"]', rule: "reserved-prefix" },
    ]);
  });

  it("allows at most 20 servers", () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, { command: "x" }]));
    expect(Object.keys(parseMcpServers(twenty, context))).toHaveLength(20);
    const error = failure({ ...twenty, s20: { command: "x" } });
    expect(error.issues).toEqual([{ path: "mcpServers", rule: "max-servers", message: "at most 20 servers may be configured, found 21; remove or merge some" }]);
  });

  it("needs a command for stdio and an http(s) url for http and sse", () => {
    expect(rules({ a: { type: "stdio" }, b: { type: "http" }, c: { type: "sse", url: "not a url" }, d: {} })).toEqual([
      { path: "mcpServers.a.command", rule: "stdio-command" },
      { path: "mcpServers.b.url", rule: "remote-url" },
      { path: "mcpServers.c.url", rule: "url-scheme" },
      { path: "mcpServers.d", rule: "stdio-command" },
    ]);
  });

  it("rejects fields of the other transport", () => {
    expect(rules({ a: { command: "x", url: "https://e.com", headers: {} }, b: { url: "https://e.com", env: {}, cwd: "/tmp" } })).toEqual([
      { path: "mcpServers.a.url", rule: "transport-fields" },
      { path: "mcpServers.a.headers", rule: "transport-fields" },
      { path: "mcpServers.b.env", rule: "transport-fields" },
      { path: "mcpServers.b.cwd", rule: "transport-fields" },
    ]);
  });

  it("defers the scheme check of a url built from variables to connect time", () => {
    expect(parseMcpServers({ a: { url: "${BASE_URL}/mcp" } }, context).a?.type).toBe("http");
  });

  it("rejects unknown keys (typos), wrong types and out-of-range limits", () => {
    expect(rules({ a: { command: "x", evn: {} }, b: { command: "x", args: "-y" }, c: { command: "x", callTimeoutMs: 0 }, d: { command: "x", confirm: "sometimes" } })).toEqual([
      { path: "mcpServers.a", rule: "unrecognized_keys" },
      { path: "mcpServers.b.args", rule: "invalid_type" },
      { path: "mcpServers.c.callTimeoutMs", rule: "too_small" },
      { path: "mcpServers.d.confirm", rule: "invalid_value" },
    ]);
  });

  it("checks placeholder syntax and that every ${input:id} is declared", () => {
    const error = failure({
      a: { command: "x", args: ["${workspace folder}"], env: { T: "${input:token}" } },
      b: { url: "https://e.com/${input:path", headers: { "Bad Header": "v" } },
    });
    expect(error.message).toBe(
      [
        "/home/u/.mcpvm/config.json is not valid:",
        '  - mcpServers.a.args[0]: "${workspace folder}" is not a supported placeholder (use ${VAR}, ${env:VAR}, ${VAR:-default} or ${input:id}) [placeholder]',
        `  - mcpServers.a.env.T: \${input:token} is not declared in this server's "inputs" [unknown-input]`,
        '  - mcpServers.b.headers["Bad Header"]: header names are HTTP tokens (letters, digits and !#$%&\'*+.^_`|~-) [header-name]',
        '  - mcpServers.b.url: "${input:path" has no closing "}" (write $${ for a literal ${) [placeholder]',
        "Fix them in an editor, or drop a broken entry with `mcpvm mcp remove a`, `mcpvm mcp remove b`",
      ].join("\n"),
    );
  });

  it("requires one definition per input id across servers, since each id is asked for once", () => {
    const token = { type: "promptString", id: "token", description: "GitHub token", password: true };
    expect(() => parseMcpServers({ a: { command: "x", env: { T: "${input:token}" }, inputs: [token] }, b: { command: "y", env: { T: "${input:token}" }, inputs: [token] } }, context)).not.toThrow();
    expect(rules({ a: { command: "x", env: { T: "${input:token}" }, inputs: [token] }, b: { command: "y", env: { T: "${input:token}" }, inputs: [{ ...token, description: "other" }] } })).toEqual([
      { path: "mcpServers.b.inputs[0]", rule: "input-conflict" },
    ]);
    expect(rules({ a: { command: "x", inputs: [token, token] } })).toEqual([{ path: "mcpServers.a.inputs[1].id", rule: "duplicate-input" }]);
  });

  it("validates a single entry under a name, as add does", () => {
    expect(parseMcpServerEntry("memory", { command: "npx" }, context)).toEqual({ type: "stdio", command: "npx", enabled: true });
    expect(() => parseMcpServerEntry("fetch", { command: "npx" }, context)).toThrow(expect.objectContaining({ code: "MCP_CONFIG_INVALID" }));
  });

  it("reports where the servers object is not an object", () => {
    expect(rules([1, 2])).toEqual([{ path: "mcpServers", rule: "invalid_type" }]);
  });
});
