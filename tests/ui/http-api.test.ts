import { request } from "node:http";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { RunningUi } from "../../src/ui/index.js";
import { makeHome, startHttpFixture, type TrustHome } from "../trust/helpers.js";
import { removeAssets, startDashboard } from "./support/browser.js";

/**
 * The dashboard's HTTP surface without a browser: what a foreign page, a DNS-rebinding page or a
 * mistyped form can and cannot do. Real server on 127.0.0.1, real config home.
 */
const homes: TrustHome[] = [];
const dashboards: RunningUi[] = [];
afterEach(async () => {
  for (const ui of dashboards.splice(0)) await ui.close();
  // A server killed at close may still be flushing into the home for a moment: retry once.
  for (const home of homes.splice(0)) await home.cleanup().catch(() => new Promise((done) => setTimeout(done, 500)).then(() => home.cleanup()));
});
afterAll(removeAssets);

async function dashboard(): Promise<{ home: TrustHome; ui: RunningUi }> {
  const home = await makeHome({ servers: () => ({ notes: { command: process.execPath, args: ["-e", "0"] } }) });
  homes.push(home);
  const ui = await startDashboard(home.env, home.dir);
  dashboards.push(ui);
  return { home, ui };
}

/** A raw request, so Host, Origin and Sec-Fetch-Site can be anything a hostile page could make a browser send. */
function raw(ui: RunningUi, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: ui.port, method, path, headers: { host: `127.0.0.1:${ui.port}`, ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const json = (ui: RunningUi) => ({ "x-mcpvm-token": ui.token, "content-type": "application/json" });
const code = (body: string): string => (JSON.parse(body) as { error: { code: string } }).error.code;

describe("mcpvm ui: who may call it", () => {
  it("listens on 127.0.0.1 only, and the page needs the token from the printed URL", async () => {
    const { ui } = await dashboard();
    expect(ui.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${ui.port}/\\?token=[A-Za-z0-9_-]{43}$`));
    expect((await raw(ui, "GET", `/?token=${ui.token}`, {})).status).toBe(200);
    const wrong = await raw(ui, "GET", "/?token=nope", {});
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain("Wrong or missing token");
    expect((await raw(ui, "GET", "/", {})).status).toBe(403);
  });

  it("every API call needs the token in its header (the one in the URL is not enough)", async () => {
    const { ui } = await dashboard();
    expect((await raw(ui, "GET", "/api/state", { "x-mcpvm-token": ui.token })).status).toBe(200);
    for (const headers of [{}, { "x-mcpvm-token": "x".repeat(43) }, { "x-mcpvm-token": `${ui.token}x` }] as Record<string, string>[]) {
      const refused = await raw(ui, "GET", "/api/state", headers);
      expect(refused.status).toBe(403);
      expect(code(refused.body)).toBe("UI_BAD_TOKEN");
    }
    expect((await raw(ui, "GET", `/api/state?token=${ui.token}`, {})).status).toBe(403);
  });

  it("refuses another Host (DNS rebinding) and a foreign Origin, even with the token", async () => {
    const { home, ui } = await dashboard();
    const rebound = await raw(ui, "GET", "/api/state", { ...json(ui), host: `evil.example:${ui.port}` });
    expect(rebound.status).toBe(421);
    expect(code(rebound.body)).toBe("UI_BAD_HOST");
    const before = await readFile(join(home.dir, "config.json"), "utf8");
    for (const origin of ["https://evil.example", `http://127.0.0.1:${ui.port + 1}`, "null"]) {
      const refused = await raw(ui, "POST", "/api/servers/notes/disable", { ...json(ui), origin }, "{}");
      expect(refused.status).toBe(403);
      expect(code(refused.body)).toBe("UI_FOREIGN_ORIGIN");
    }
    const crossSite = await raw(ui, "POST", "/api/servers/notes/disable", { ...json(ui), "sec-fetch-site": "cross-site" }, "{}");
    expect(crossSite.status).toBe(403);
    expect(await readFile(join(home.dir, "config.json"), "utf8")).toBe(before);
    // Its own origin is fine.
    expect((await raw(ui, "POST", "/api/servers/notes/disable", { ...json(ui), origin: ui.origin }, "{}")).status).toBe(200);
    expect(JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")).mcpServers.notes.enabled).toBe(false);
  });

  it("state changes are POST with a JSON body: a GET or a form post changes nothing", async () => {
    const { home, ui } = await dashboard();
    const before = await readFile(join(home.dir, "config.json"), "utf8");
    const get = await raw(ui, "GET", "/api/servers/notes/disable", { "x-mcpvm-token": ui.token });
    expect(get.status).toBe(404);
    const form = await raw(ui, "POST", "/api/servers/notes/disable", { "x-mcpvm-token": ui.token, "content-type": "text/plain" }, "{}");
    expect(form.status).toBe(415);
    expect(code(form.body)).toBe("UI_NOT_JSON");
    expect((await raw(ui, "DELETE", "/api/servers/notes", { "x-mcpvm-token": ui.token })).status).toBe(405);
    expect(await readFile(join(home.dir, "config.json"), "utf8")).toBe(before);
  });

  it("a JSON look-alike media type is refused (415) and a body that is not JSON is a usage error (exit 2) like every refusal", async () => {
    const { home, ui } = await dashboard();
    const before = await readFile(join(home.dir, "config.json"), "utf8");
    const lookalike = await raw(ui, "POST", "/api/servers/notes/disable", { "x-mcpvm-token": ui.token, "content-type": "application/jsonfoo" }, "{}");
    expect(lookalike.status).toBe(415);
    expect(JSON.parse(lookalike.body).error).toMatchObject({ code: "UI_NOT_JSON", exitCode: 2 });
    const notJson = await raw(ui, "POST", "/api/servers/notes/disable", { "x-mcpvm-token": ui.token, "content-type": "application/json" }, "{nope");
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error).toMatchObject({ code: "UI_BAD_REQUEST", exitCode: 2 });
    expect(await readFile(join(home.dir, "config.json"), "utf8")).toBe(before);
    // Case and parameters are part of the grammar, not a reason to refuse.
    expect((await raw(ui, "POST", "/api/servers/notes/disable", { "x-mcpvm-token": ui.token, "content-type": "Application/JSON ; charset=UTF-8" }, "{}")).status).toBe(200);
  });

  it("closing it closes every server it started", async () => {
    const home = await makeHome({ servers: (starts) => ({ fx: { command: process.execPath, args: [join(import.meta.dirname, "../fixtures/servers/fixture-server.mjs")], env: { MCPVM_FIXTURE_STARTS: starts } } }), approve: ["fx"] });
    homes.push(home);
    const ui = await startDashboard(home.env, home.dir);
    const tools = await raw(ui, "GET", "/api/servers/fx/tools", json(ui));
    expect(tools.status).toBe(200);
    const pid = Number((await readFile(home.starts, "utf8")).trim().split(/\s+/)[0]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await ui.close();
    await expect.poll(() => { try { process.kill(pid, 0); return true; } catch { return false; } }, { timeout: 10_000 }).toBe(false);
    await expect(raw(ui, "GET", "/api/state", json(ui))).rejects.toThrow();
  });
});

describe("mcpvm ui: bad input gets the CLI's errors, and nothing is saved", () => {
  it("log in: a stdio server or an unknown name gets the CLI's error, and no login starts", async () => {
    const { home, ui } = await dashboard();
    const stdio = await raw(ui, "POST", "/api/servers/notes/login", json(ui), "{}");
    expect(stdio.status).toBe(400);
    expect(JSON.parse(stdio.body).error).toMatchObject({ code: "USAGE", exitCode: 2, message: "server notes is a stdio server; login applies to http and sse servers only." });
    const unknown = await raw(ui, "POST", "/api/servers/ntoes/logout", json(ui), "{}");
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error.message).toBe('No MCP server named "ntoes" is configured; did you mean "notes"? (configured: notes).');
    expect((await raw(ui, "GET", "/api/servers/notes/login", json(ui))).body).toBe(JSON.stringify({ server: "notes", state: "none" }));
    // A GET cannot start one.
    expect((await raw(ui, "GET", "/api/servers/notes/login/cancel", json(ui))).status).toBe(404);
    expect(await readFile(join(home.dir, "oauth-tokens.json"), "utf8").catch(() => "absent")).toBe("absent");
  });

  it("log in to an http server that answers without one: done at once, and it says so (nothing stored)", async () => {
    const open = await startHttpFixture([]);
    try {
      const home = await makeHome({ servers: () => ({ plain: { url: open.url } }), approve: ["plain"] });
      homes.push(home);
      const ui = await startDashboard(home.env, home.dir, { opener: { open: () => Promise.reject(new Error("no login page should be opened")) } });
      dashboards.push(ui);
      const state = JSON.parse((await raw(ui, "GET", "/api/state", json(ui))).body) as { servers: { name: string; loginOffered: boolean }[] };
      // No oauth block, no stored login, never asked: no Log in button.
      expect(state.servers[0]).toMatchObject({ name: "plain", loginOffered: false });
      const login = await raw(ui, "POST", "/api/servers/plain/login", json(ui), "{}");
      expect(login.status, login.body).toBe(200);
      expect(JSON.parse(login.body)).toMatchObject({ server: "plain", state: "done", line: "plain did not ask for a login: it answers without one (nothing stored)", status: { state: "none" } });
      expect(await readFile(join(home.dir, "oauth-tokens.json"), "utf8").then((t) => (JSON.parse(t) as { servers: Record<string, { tokens?: unknown }> }).servers.plain?.tokens, () => undefined)).toBeUndefined();
    } finally {
      await open.stop();
    }
  });

  it("an invalid server name, a missing command, a bad URL: the CLI's codes and messages", async () => {
    const { home, ui } = await dashboard();
    const before = await readFile(join(home.dir, "config.json"), "utf8");
    const add = (form: Record<string, unknown>) => raw(ui, "POST", "/api/servers", json(ui), JSON.stringify(form));
    const badName = await add({ name: "My Server!", kind: "stdio", command: "node", args: ["x.js"] });
    expect(badName.status).toBe(400);
    expect(code(badName.body)).toBe("MCP_SERVER_ARGUMENT_INVALID");
    const noCommand = await add({ name: "x", kind: "stdio", command: "" });
    expect(JSON.parse(noCommand.body).error).toMatchObject({ code: "USAGE", exitCode: 2 });
    expect(JSON.parse(noCommand.body).error.message).toContain("give the command after --");
    const badUrl = await add({ name: "api", kind: "http", url: "ftp://x" });
    expect(JSON.parse(badUrl.body).error.message).toContain("needs an absolute http:// or https:// URL");
    const notInCatalog = await add({ name: "memroy", kind: "catalog" });
    expect(JSON.parse(notInCatalog.body).error.message).toContain('did you mean "memory"');
    const exists = await add({ name: "notes", kind: "stdio", command: process.execPath, args: ["-e", "1"] });
    expect(code(exists.body)).toBe("MCP_CONFIG_SERVER_EXISTS");
    const badJson = await raw(ui, "POST", "/api/servers", json(ui), "{name:");
    expect(code(badJson.body)).toBe("UI_BAD_REQUEST");
    const unknownField = await add({ name: "x", kind: "stdio", command: "node", shell: true });
    expect(code(unknownField.body)).toBe("UI_BAD_REQUEST");
    expect(await readFile(join(home.dir, "config.json"), "utf8")).toBe(before);
  });

  it("a command that is not found is added with the CLI's warning in its notes; one that is found gets none", async () => {
    const { home, ui } = await dashboard();
    const add = (form: Record<string, unknown>) => raw(ui, "POST", "/api/servers", json(ui), JSON.stringify(form));
    const missing = await add({ name: "ghost", kind: "stdio", command: "mcpvm-no-such-program-7f3" });
    expect(missing.status, missing.body).toBe(200);
    const notes = (JSON.parse(missing.body) as { notes: string[] }).notes;
    expect(notes.join("\n")).toMatch(/the command "mcpvm-no-such-program-7f3" of server ghost is not found on PATH .*mcpvm doctor/);
    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers.ghost).toBeDefined();
    const found = await add({ name: "present", kind: "stdio", command: process.execPath, args: ["-e", "1"] });
    expect((JSON.parse(found.body) as { notes: string[] }).notes.join("\n")).not.toContain("is not found");
  });

  it("the catalog's memory added from the page keeps its graph in that config home, as the CLI's does", async () => {
    const { home, ui } = await dashboard();
    const added = await raw(ui, "POST", "/api/servers", json(ui), JSON.stringify({ name: "memory", kind: "catalog" }));
    expect(added.status).toBe(200);
    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { mcpServers: Record<string, { env?: Record<string, string> }> };
    expect(config.mcpServers.memory?.env).toEqual({ MEMORY_FILE_PATH: join(home.dir, "memory.jsonl") });
  });

  it("import: a file that is not a client config, or not JSON, is refused with the CLI's error; a good one is imported", async () => {
    const { home, ui } = await dashboard();
    const before = await readFile(join(home.dir, "config.json"), "utf8");
    const importing = (body: Record<string, unknown>) => raw(ui, "POST", "/api/import", json(ui), JSON.stringify(body));
    const notJson = await importing({ text: "servers: [", fileName: "mcp.json" });
    expect(notJson.status).toBe(400);
    expect(code(notJson.body)).toMatch(/^MCP_IMPORT_/);
    await writeFile(join(home.dir, "package.json"), JSON.stringify({ name: "not-a-config", version: "1.0.0" }));
    const notConfig = await importing({ path: "package.json" });
    expect(code(notConfig.body)).toMatch(/^MCP_IMPORT_/);
    const missing = await importing({ path: "nope.json" });
    expect(code(missing.body)).toBe("MCP_IMPORT_UNREADABLE");
    expect(await readFile(join(home.dir, "config.json"), "utf8")).toBe(before);

    const good = await importing({ text: JSON.stringify({ mcpServers: { "My Memory": { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } } }), fileName: ".mcp.json" });
    expect(good.status).toBe(200);
    expect(JSON.parse(good.body)).toMatchObject({ added: ["my-memory"], dryRun: false });
    expect(JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")).mcpServers["my-memory"].command).toBe("npx");
  });

  it("approving a definition that sets code-loading env needs the server name typed", async () => {
    const home = await makeHome({ servers: () => ({ preload: { command: process.execPath, args: ["-e", "0"], env: { NODE_OPTIONS: "--require /tmp/x.js" } } }) });
    homes.push(home);
    const ui = await startDashboard(home.env, home.dir);
    dashboards.push(ui);
    const { hash } = (JSON.parse((await raw(ui, "GET", "/api/approvals", json(ui))).body) as { launches: Array<{ hash: string }> }).launches[0] as { hash: string };
    const plain = await raw(ui, "POST", "/api/servers/preload/approve", json(ui), JSON.stringify({ hash }));
    expect(code(plain.body)).toBe("UI_CONFIRMATION_REQUIRED");
    const state = JSON.parse((await raw(ui, "GET", "/api/state", json(ui))).body);
    expect(state.servers[0].approval).not.toBe("approved");
  });
});
