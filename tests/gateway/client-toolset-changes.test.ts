import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { runCli } from "../../src/cli/main.js";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { captureIo } from "../support/cli-io.js";
import { everythingServer, makeHome, waitFor, type TestHome } from "./helpers.js";

const TOKEN = "gateway-token-0123456789abcdef";

/**
 * A toolset edited while clients hold sessions (`mcpvm toolset build`, the dashboard, another
 * client's build-toolset): the clients whose direct tools it decides are sent
 * notifications/tools/list_changed, without having to make a request first — a client bound to it
 * by its token, and every client of a `serve --toolset` gateway.
 */
describe("toolset edits reach connected clients as list_changed", () => {
  let home: TestHome;
  let running: RunningGateway;
  let store: ToolsetStore;
  let bobToken: string;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    store = new ToolsetStore(join(home.dir, "toolsets.json"));
    await store.save({ name: "bobs", tools: ["everything.echo"] });
    await store.save({ name: "team", tools: ["everything.echo"] });
    const io = captureIo(home.env);
    expect(await runCli(["gateway", "token", "create", "bob", "--toolset", "bobs"], io), io.stderrText()).toBe(0);
    bobToken = io.stdoutText().trim();
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, toolset: "team", logLevel: "error", pretty: false });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function connect(token: string): Promise<{ client: V1Client; changes: () => number }> {
    const client = new V1Client({ name: "toolset-changes", version: "1" });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    await client.connect(new V1HttpTransport(new URL(running.url as string), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return { client, changes: () => changes };
  }

  it("tells a client bound to a toolset by its token when that toolset is edited, and lists the new tools", { timeout: 60_000 }, async () => {
    const bob = await connect(bobToken);
    try {
      expect((await bob.client.listTools()).tools.map((t) => t.name)).toContain("everything_echo");
      await store.save({ name: "bobs", tools: ["everything.echo", "everything.get-sum"] });
      await waitFor(() => bob.changes() > 0, 5_000, "list_changed after the edit, with no request made");
      expect((await bob.client.listTools()).tools.map((t) => t.name)).toContain("everything_get_sum");
    } finally {
      await bob.client.close();
    }
  });

  it("refuses to delete a toolset a client token is bound to (CLI and delete-toolset), until that token is revoked", { timeout: 60_000 }, async () => {
    const io = captureIo(home.env);
    expect(await runCli(["toolset", "delete", "bobs"], io)).toBe(2);
    expect(io.stderrText()).toContain("GATEWAY_TOOLSET_IN_USE");
    expect(io.stderrText()).toContain("mcpvm gateway token revoke bob");
    const admin = await connect(TOKEN);
    const bob = await connect(bobToken);
    try {
      const refused = await admin.client.callTool({ name: "delete-toolset", arguments: { name: "bobs" } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("GATEWAY_TOOLSET_IN_USE");
      expect((await store.list()).map((t) => t.name)).toContain("bobs");
      expect((await bob.client.listTools()).tools.map((t) => t.name)).toContain("everything_echo");
    } finally {
      await Promise.all([admin.client.close(), bob.client.close()]);
    }
    const revoke = captureIo(home.env);
    expect(await runCli(["gateway", "token", "revoke", "bob"], revoke)).toBe(0);
    const again = captureIo(home.env);
    expect(await runCli(["toolset", "delete", "bobs"], again), again.stderrText()).toBe(0);
  });

  it("tells a client whose bound toolset was removed from toolsets.json by hand what happened and whom to ask", { timeout: 60_000 }, async () => {
    await store.save({ name: "carols", tools: ["everything.echo"] });
    const io = captureIo(home.env);
    expect(await runCli(["gateway", "token", "create", "carol", "--toolset", "carols"], io), io.stderrText()).toBe(0);
    const file = join(home.dir, "toolsets.json");
    const saved = JSON.parse(await readFile(file, "utf8")) as { toolsets: Record<string, unknown> };
    delete saved.toolsets.carols;
    await writeFile(file, JSON.stringify(saved), { mode: 0o600 });
    const carol = await connect(io.stdoutText().trim());
    try {
      const script = await carol.client.callTool({ name: "run_mcp_script", arguments: { script: "return 1" } });
      expect(script.isError).toBe(true);
      const text = JSON.stringify(script.content);
      expect(text).toContain('toolset \\"carols\\" that the token of client \\"carol\\" is bound to no longer exists');
      expect(text).toContain("ask the gateway's operator");
      expect(text).not.toContain("build-toolset");
    } finally {
      await carol.client.close();
    }
  });

  it("tells every client of a serve --toolset gateway when the equipped toolset is edited while it is idle", { timeout: 60_000 }, async () => {
    const admin = await connect(TOKEN);
    try {
      expect((await admin.client.listTools()).tools.map((t) => t.name)).toContain("everything_echo");
      await store.save({ name: "team", tools: ["everything.get-sum"] });
      await waitFor(() => admin.changes() > 0, 5_000, "list_changed after the edit, with no request made");
      const names = (await admin.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("everything_get_sum");
      expect(names).not.toContain("everything_echo");
    } finally {
      await admin.client.close();
    }
  });
});
