import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpvmHost } from "../../src/host/index.js";
import { NOT_SANDBOXED_WARNING } from "../../src/mcp/approval/index.js";
import { cli, countingListener, isAlive, makeHome, openHost, SCRIPTED, scriptedServer, setServers, startCount, stdioServer, writeScript, type TrustHome } from "./helpers.js";

const homes: TrustHome[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const home of homes.splice(0)) await home.cleanup();
});

async function home(options: Parameters<typeof makeHome>[0]): Promise<TrustHome> {
  const made = await makeHome(options);
  homes.push(made);
  return made;
}

async function host(h: TrustHome): Promise<McpvmHost> {
  const opened = await openHost(h);
  closers.push(() => opened.close());
  return opened;
}

const ECHO = `const fx = require("host:mcp-fx"); return fx.echo({ text: "hi" });`;
const PID = `return require("host:mcp-fx").pid({});`;

describe("nothing reaches an unapproved MCP server", () => {
  it("guest code: require and the tools global fail with MCP_NOT_APPROVED and no process starts", async () => {
    const h = await home({ servers: (starts) => ({ fx: stdioServer(starts) }) });
    const mcpvm = await host(h);
    const viaRequire = await mcpvm.run(ECHO);
    const viaTools = await mcpvm.run(`return await tools.fx.echo({ text: "hi" });`);
    for (const result of [viaRequire, viaTools]) {
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.errorCode).toBe("MCP_NOT_APPROVED");
      expect(result.error.message).toContain("mcpvm mcp approve fx");
    }
    expect(startCount(h.starts)).toBe(0);
  });

  it("does not even ask for ${input:…} values before approval", async () => {
    const h = await home({
      servers: (starts) => ({
        fx: { ...stdioServer(starts, [], { TOKEN: "${input:token}" }), inputs: [{ type: "promptString", id: "token", password: true }] },
      }),
    });
    let asked = 0;
    const mcpvm = await McpvmHost.open({ env: h.env, promptInput: async () => `asked-${++asked}-value` });
    closers.push(() => mcpvm.close());
    const result = await mcpvm.run(ECHO);
    expect(result.ok).toBe(false);
    expect(asked).toBe(0);
    expect(startCount(h.starts)).toBe(0);
  });

  it("CLI: `mcp info` shows the approval prompt without starting it; `mcp types` and `run` refuse with exit 5", async () => {
    const h = await home({ servers: (starts) => ({ fx: stdioServer(starts) }) });
    const info = await cli(h, ["mcp", "info", "fx"]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain('MCP server "fx" (stdio) asks to be approved.');
    expect(info.stdout).toContain("fx is not approved, so it was not started");
    const types = await cli(h, ["mcp", "types", "fx"]);
    expect(types.code).toBe(5);
    expect(types.stderr).toContain("[MCP_NOT_APPROVED]");
    const run = await cli(h, ["run", await writeScript(h, "echo.js", ECHO)]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("is not approved, so it was not started");
    expect(startCount(h.starts)).toBe(0);
  });

  it("HTTP: an unapproved server's URL is never contacted (and is, once approved)", async () => {
    const listener = await countingListener();
    closers.push(listener.close);
    const h = await home({ servers: () => ({ remote: { type: "http", url: listener.url, headers: { Authorization: "Bearer tok-123456" } } }) });
    const before = await (await host(h)).run(`return require("host:mcp-remote");`);
    expect(before.ok).toBe(false);
    expect(before.ok ? "" : before.error.errorCode).toBe("MCP_NOT_APPROVED");
    expect(listener.requests()).toBe(0);
    // Positive control: the same definition, approved, does reach the URL (which is not an MCP server).
    expect((await cli(h, ["--yes", "mcp", "approve", "remote"])).code).not.toBe(0);
    expect(listener.requests()).toBeGreaterThan(0);
  });
});

describe("revoke and disable stop a server at once, and nothing reconnects", () => {
  it("revoke (the /mcp path, in the running session) kills the process; the next run starts nothing", async () => {
    const h = await home({ servers: (starts) => ({ fx: stdioServer(starts) }), approve: ["fx"] });
    const mcpvm = await host(h);
    const first = await mcpvm.run(PID);
    expect(first.ok).toBe(true);
    const pid = (first.ok ? first.value : {}) as { pid: number };
    expect(isAlive(pid.pid)).toBe(true);
    expect(await (await mcpvm.requireMcp()).revoke("fx")).toBe(true);
    expect(isAlive(pid.pid)).toBe(false);
    const again = await mcpvm.run(PID);
    expect(again.ok ? "" : again.error.errorCode).toBe("MCP_NOT_APPROVED");
    expect(startCount(h.starts)).toBe(1);
  });

  it("revoke from another process (`mcpvm mcp revoke` while a session runs): the session's next call is refused and the server stopped", async () => {
    const h = await home({ servers: (starts) => ({ fx: stdioServer(starts) }), approve: ["fx"] });
    const mcpvm = await host(h);
    const first = await mcpvm.run(PID);
    const pid = (first.ok ? first.value : {}) as { pid: number };
    const revoke = await cli(h, ["mcp", "revoke", "fx"]);
    expect(revoke.code).toBe(0);
    const again = await mcpvm.run(PID);
    expect(again.ok ? "" : again.error.errorCode).toBe("MCP_NOT_APPROVED");
    expect(isAlive(pid.pid)).toBe(false);
    expect(startCount(h.starts)).toBe(1);
  });

  it("disable: the module disappears, the CLI run starts nothing, and the service refuses the server by code", async () => {
    const h = await home({ servers: (starts) => ({ fx: stdioServer(starts) }), approve: ["fx"] });
    expect((await cli(h, ["mcp", "disable", "fx"])).code).toBe(0);
    const run = await cli(h, ["run", await writeScript(h, "echo.js", ECHO)]);
    // A disabled server is refused by code (MCP_SERVER_DISABLED): exit 5, "needs the person first", with the command that fixes it.
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("host:mcp-fx");
    expect(run.stderr).toContain("mcpvm mcp enable fx");
    const service = await (await host(h)).requireMcp();
    await expect(service.catalog("fx")).rejects.toMatchObject({ code: "MCP_SERVER_DISABLED" });
    expect(startCount(h.starts)).toBe(0);
  });
});

describe("a changed definition needs re-approval before anything starts", () => {
  const stdioCases: Array<[string, (starts: string) => Record<string, unknown>]> = [
    ["args", (starts) => stdioServer(starts, ["--latency", "0"])],
    ["an env value", (starts) => ({ ...stdioServer(starts), env: { MCPVM_FIXTURE_STARTS: starts, MODE: "changed" } })],
    ["a literal env value replaced by a ${VAR} reference", (starts) => ({ ...stdioServer(starts), env: { MCPVM_FIXTURE_STARTS: starts, MODE: "${MODE_FROM_HOST}" } })],
  ];
  it.each(stdioCases)("stdio: %s", async (_label, changed) => {
    const h = await home({ servers: (starts) => ({ fx: { ...stdioServer(starts), env: { MCPVM_FIXTURE_STARTS: starts, MODE: "original" } } }), approve: ["fx"] });
    await setServers(h, { fx: changed(h.starts) });
    const mcpvm = await host(h);
    expect((await (await mcpvm.requireMcp()).approvalStatus("fx")).state).toBe("changed");
    const result = await mcpvm.run(ECHO);
    expect(result.ok ? "" : result.error.errorCode).toBe("MCP_APPROVAL_CHANGED");
    expect(result.ok ? "" : result.error.message).toContain("changed since it was approved");
    expect(startCount(h.starts)).toBe(0);
  });

  it.each([["a header value"], ["the url"]])("http: %s", async (label) => {
    const original = await countingListener();
    const moved = await countingListener();
    closers.push(original.close, moved.close);
    const h = await home({ servers: () => ({ remote: { type: "http", url: original.url, headers: { "X-Api-Key": "key-original" } } }), approve: ["remote"] });
    await setServers(h, {
      remote: label === "the url" ? { type: "http", url: moved.url, headers: { "X-Api-Key": "key-original" } } : { type: "http", url: original.url, headers: { "X-Api-Key": "key-changed" } },
    });
    const result = await (await host(h)).run(`return require("host:mcp-remote");`);
    expect(result.ok ? "" : result.error.errorCode).toBe("MCP_APPROVAL_CHANGED");
    expect(original.requests() + moved.requests()).toBe(0);
  });
});

describe("the approval prompt", () => {
  it("shows command and args verbatim, env names with values masked, and the not-sandboxed warning", async () => {
    const args = [join("/opt", "x", "server.mjs"), "--name", "two words", "; touch pwned", "$(id)"];
    const h = await home({ servers: (starts) => ({ fx: { command: process.execPath, args, env: { MCPVM_FIXTURE_STARTS: starts, API_KEY: "sk-live-prompt-secret" } } }) });
    const refused = await cli(h, ["mcp", "approve", "fx"]);
    expect(refused.code).toBe(5);
    const prompt = refused.stderr;
    expect(prompt).toContain(`command: ${JSON.stringify(process.execPath)}`);
    expect(prompt).toContain(`args:    ${JSON.stringify(args)}`);
    // The secret is masked; a plain path is shown, so the person sees what they approve.
    expect(prompt).toContain(`env:     API_KEY=**** MCPVM_FIXTURE_STARTS=${h.starts}`);
    expect(prompt).toContain(`WARNING: ${NOT_SANDBOXED_WARNING}`);
    expect(refused.stdout + refused.stderr).not.toContain("sk-live-prompt-secret");
    expect(refused.stderr).toContain("Not approved: no terminal to ask on");
    expect(startCount(h.starts)).toBe(0);
  });

  it("for a remote server shows the url and header names, never header values", async () => {
    const h = await home({ servers: () => ({ remote: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer prompt-secret-42" } } }) });
    const prompt = (await cli(h, ["mcp", "info", "remote"])).stdout;
    expect(prompt).toContain("url:     http://127.0.0.1:9/mcp");
    expect(prompt).toContain("headers: Authorization: ****");
    expect(prompt).not.toContain("prompt-secret-42");
    expect(prompt).toContain(NOT_SANDBOXED_WARNING);
  });
});

describe("command injection via config", () => {
  it("args reach the server verbatim, never through a shell", async () => {
    const h = await home({ servers: () => ({}) });
    const spec = join(h.dir, "spec.json");
    await writeFile(spec, JSON.stringify({ tools: [{ name: "ping" }] }));
    const marker = join(h.dir, "pwned");
    await setServers(h, { fx: { ...scriptedServer(h.starts, spec), args: [SCRIPTED, spec, `; touch ${marker}`, `$(touch ${marker})`, `\`touch ${marker}\``] } });
    expect((await cli(h, ["--yes", "mcp", "approve", "fx"])).code).toBe(0);
    const run = await cli(h, ["run", await writeScript(h, "ping.js", `return require("host:mcp-fx").ping({});`)]);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
