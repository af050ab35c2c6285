import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../../src/host/index.js";
import { isAlive } from "../support/processes.js";
import { fixtureServer, jsonOf, makeHome, SERVE_ENTRY, VITE_NODE, waitFor, type TestHome } from "./helpers.js";
import { startServeProcess, type ServeProcess } from "./serve-process.js";

// A running gateway follows config.json: servers added, removed and changed apply without a restart,
// to clients that stay connected; an edit that does not validate keeps the last good configuration.

type Script = { result: unknown; error?: { message: string } };

async function runScript(client: Client, script: string): Promise<Script> {
  return jsonOf<Script>(await client.callTool({ name: "run_mcp_script", arguments: { script } }));
}

/** The server note in list_mcp_tools' description ("MCP servers available: …"), as a client's tools/list shows it. */
async function serverNote(client: Client): Promise<string> {
  const tools = (await client.listTools()).tools;
  return tools.find((t) => t.name === "list_mcp_tools")?.description ?? "";
}

async function connect(url: URL, mode: "legacy" | "auto", onToolsChanged?: () => void, onOtherListChanged?: (list: string) => void): Promise<Client> {
  const client = new Client({ name: `reload-${mode}`, version: "1" }, { versionNegotiation: { mode } });
  if (onToolsChanged !== undefined) client.setNotificationHandler("notifications/tools/list_changed", () => onToolsChanged());
  if (onOtherListChanged !== undefined) {
    client.setNotificationHandler("notifications/resources/list_changed", () => onOtherListChanged("resources"));
    client.setNotificationHandler("notifications/prompts/list_changed", () => onOtherListChanged("prompts"));
  }
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, "utf8").catch(() => "")).split("\n").filter((line) => line.trim() !== "");
}

interface Config {
  mcpServers: Record<string, unknown>;
  gateway?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A home serving alpha, with beta approved (its definition's approval stored) and then taken out of
 * config.json, to be added back live; each server's starts are recorded in `<dir>/<name>.starts`.
 */
async function homeWithBetaApprovedAndRemoved(prefix: string): Promise<{ home: TestHome; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const home = await makeHome({ servers: { alpha: fixtureServer(join(dir, "alpha.starts")), beta: fixtureServer(join(dir, "beta.starts")) }, gateway: { healthIntervalMs: 0 } });
  const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as Config;
  delete config.mcpServers.beta;
  await writeFile(join(home.dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  return { home, dir };
}

describe("mcpvm serve --http follows config.json edits without a restart", () => {
  let home: TestHome;
  let dir: string;
  let serve: ServeProcess | undefined;
  let base: Config;
  const starts = (name: string) => join(dir, `${name}.starts`);
  const configFile = () => join(home.dir, "config.json");
  const writeConfig = (config: Config) => writeFile(configFile(), JSON.stringify(config, null, 2), { mode: 0o600 });

  beforeAll(async () => {
    ({ home, dir } = await homeWithBetaApprovedAndRemoved("mcpvm-reload-"));
    base = JSON.parse(await readFile(configFile(), "utf8")) as Config;
  }, 180_000);
  afterAll(async () => {
    if (serve !== undefined && serve.child.exitCode === null) {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
    await home?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("adds, removes (after the call in flight) and changes servers; keeps serving through invalid edits", { timeout: 180_000 }, async () => {
    serve = await startServeProcess(home.env, ["--no-auth"]);
    let changes = 0;
    const otherLists = new Set<string>();
    const legacy = await connect(serve.url, "legacy", () => void (changes += 1), (list) => otherLists.add(list));
    const modern = await connect(serve.url, "auto");
    try {
      const alphaPid = (await runScript(legacy, `return (await require("host:mcp-alpha").pid()).pid;`)).result;
      expect(typeof alphaPid).toBe("number");
      expect(await serverNote(modern)).toContain("MCP servers available: alpha.");

      // Added while both clients are connected: the 2025 session is told, the 2026 client sees it on its next list.
      const withBeta = { ...base, mcpServers: { ...base.mcpServers, beta: fixtureServer(starts("beta")) } };
      await writeConfig(withBeta);
      await waitFor(() => changes > 0 && otherLists.size === 2, 20_000, "notifications/{tools,resources,prompts}/list_changed after adding beta");
      expect(await serverNote(modern)).toContain("MCP servers available: alpha, beta.");
      const echoed = await runScript(modern, `return await require("host:mcp-beta").echo({ text: "hello beta" });`);
      expect(JSON.stringify(echoed.result)).toContain("hello beta");
      // alpha was untouched: same process, same connection.
      expect((await runScript(legacy, `return (await require("host:mcp-alpha").pid()).pid;`)).result).toBe(alphaPid);

      // An unapproved newcomer is listed as waiting for approval and never spawned.
      const seen = changes;
      await writeConfig({ ...withBeta, mcpServers: { ...withBeta.mcpServers, gamma: fixtureServer(starts("gamma")) } });
      await waitFor(() => changes > seen, 20_000, "list_changed after adding gamma");
      expect(await serverNote(modern)).toMatch(/gamma is not approved and is not started; approve it with `mcpvm mcp approve gamma`/);
      const refused = await runScript(modern, `return await require("host:mcp-gamma").echo({ text: "x" });`);
      expect(refused.error?.message).toMatch(/not approved/);
      expect(await lines(starts("gamma"))).toEqual([]);
      await waitFor(() => serve?.stderr().includes("gamma is not approved") === true, 5_000, "the log naming gamma");

      // Removed during a slow call: that call finishes, the next one is refused naming the server, its process ends.
      const betaPid = (await runScript(legacy, `return (await require("host:mcp-beta").pid()).pid;`)).result as number;
      const slow = runScript(legacy, `return await require("host:mcp-beta").sleep({ ms: 6000 });`);
      await new Promise((r) => setTimeout(r, 700));
      const beforeRemove = changes;
      await writeConfig(base);
      await waitFor(() => changes > beforeRemove, 20_000, "list_changed after removing beta");
      expect(isAlive(betaPid)).toBe(true);
      const finished = await slow;
      expect(finished.error).toBeUndefined();
      const gone = await runScript(modern, `return await require("host:mcp-beta").echo({ text: "x" });`);
      expect(gone.error?.message).toMatch(/server "beta" was removed from .*config\.json while mcpvm was running; add it back there/);
      await waitFor(() => !isAlive(betaPid), 20_000, "beta's process to end once its call finished");
      expect(await serverNote(modern)).toContain("MCP servers available: alpha.");

      // Edits that do not validate: logged with what and where, the last good configuration keeps serving.
      await writeFile(configFile(), "{ not json", { mode: 0o600 });
      await waitFor(() => serve?.stderr().includes("cannot be used") === true, 20_000, "the invalid-JSON error in the log");
      expect(serve.stderr()).toMatch(/line 1, column/);
      expect((await runScript(legacy, `return (await require("host:mcp-alpha").pid()).pid;`)).result).toBe(alphaPid);
      await writeConfig({ ...base, mcpServers: { alpha: { ...(base.mcpServers.alpha as object), command: 42 } } });
      await waitFor(() => /mcpServers\.alpha\.command/.test(serve?.stderr() ?? ""), 20_000, "the schema error naming the key");
      expect((await runScript(legacy, `return (await require("host:mcp-alpha").pid()).pid;`)).result).toBe(alphaPid);

      // Settings of the gateway itself are reported as needing a restart, not silently ignored.
      await writeConfig({ ...base, gateway: { ...base.gateway, maxSessions: 50 } });
      await waitFor(() => serve?.stderr().includes("gateway.maxSessions changed; that needs a restart") === true, 20_000, "the restart warning");
      expect((await runScript(legacy, `return (await require("host:mcp-alpha").pid()).pid;`)).result).toBe(alphaPid);

      // A changed definition is removed + added: the old process is closed, the new one needs a new approval.
      const alpha = base.mcpServers.alpha as { args: string[] };
      await writeConfig({ ...base, mcpServers: { alpha: { ...alpha, args: [...alpha.args, "--mode", "echo"] } } });
      await waitFor(() => !isAlive(alphaPid as number), 20_000, "the old alpha process to close");
      const changed = await runScript(legacy, `return (await require("host:mcp-alpha").pid()).pid;`);
      expect(changed.error?.message).toMatch(/changed since it was approved|approve/);
      expect(await lines(starts("alpha"))).toHaveLength(1);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });
});

describe("replicas sharing a config home both follow an edit", () => {
  let home: TestHome;
  let dir: string;
  const replicas: ServeProcess[] = [];

  beforeAll(async () => {
    ({ home, dir } = await homeWithBetaApprovedAndRemoved("mcpvm-reload-replicas-"));
  }, 180_000);
  afterAll(async () => {
    for (const replica of replicas) {
      if (replica.child.exitCode === null) replica.child.kill("SIGTERM");
      await replica.exited;
    }
    await home?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("each replica serves the added server", { timeout: 180_000 }, async () => {
    replicas.push(...(await Promise.all([0, 1].map(() => startServeProcess(home.env, ["--no-auth"])))));
    const clients = await Promise.all(replicas.map((r) => connect(r.url, "auto")));
    try {
      for (const client of clients) expect(await serverNote(client)).toContain("MCP servers available: alpha.");
      const host = await McpvmHost.open({ env: home.env });
      const config = structuredClone(host.config) as Config;
      await host.close();
      config.mcpServers.beta = fixtureServer(join(dir, "beta.starts"));
      await writeFile(join(home.dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
      for (const client of clients) {
        const echoed = await runScript(client, `return await require("host:mcp-beta").echo({ text: "both" });`);
        expect(JSON.stringify(echoed)).toContain("both");
      }
      expect(await lines(join(dir, "beta.starts"))).toHaveLength(2);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});

describe("mcpvm serve (stdio) follows config.json edits", () => {
  let home: TestHome;
  let dir: string;

  beforeAll(async () => {
    ({ home, dir } = await homeWithBetaApprovedAndRemoved("mcpvm-reload-stdio-"));
  }, 180_000);
  afterAll(async () => {
    await home?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("tells the client its tools changed, and serves the added server", { timeout: 150_000 }, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [VITE_NODE, SERVE_ENTRY, "--", "--log-level", "warn"], env: home.env, stderr: "pipe" });
    const client = new Client({ name: "reload-stdio", version: "1" });
    let changes = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => void (changes += 1));
    await client.connect(transport);
    try {
      expect(await serverNote(client)).toContain("MCP servers available: alpha.");
      const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as Config;
      config.mcpServers.beta = fixtureServer(join(dir, "beta.starts"));
      await writeFile(join(home.dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
      await waitFor(() => changes > 0, 20_000, "notifications/tools/list_changed");
      expect(await serverNote(client)).toContain("MCP servers available: alpha, beta.");
      expect(JSON.stringify(await runScript(client, `return await require("host:mcp-beta").echo({ text: "stdio beta" });`))).toContain("stdio beta");
    } finally {
      await client.close();
    }
  });
});
