import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ToolsetStore } from "../../src/gateway/index.js";
import { everythingServer, makeHome, SERVE_ENTRY, VITE_NODE, waitFor, type TestHome } from "./helpers.js";

// `mcpvm serve --toolset <name>` read the toolset once. It now follows toolsets.json like config.json:
// an edit applies to the next request, and a file that no longer reads keeps the last good toolset.

describe("mcpvm serve --toolset: toolsets.json changed while it runs", () => {
  let home: TestHome;
  let store: ToolsetStore;
  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() }, approve: ["everything"] });
    store = new ToolsetStore(join(home.dir, "toolsets.json"));
    await store.save({ name: "echoes", tools: ["everything.echo"] });
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  it("re-reads the equipped toolset, and keeps the last good one (saying why) when the file is broken or it is deleted", { timeout: 150_000 }, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [VITE_NODE, SERVE_ENTRY, "--", "--toolset", "echoes"], env: home.env, stderr: "pipe" });
    let log = "";
    transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    const client = new Client({ name: "toolset-reload", version: "1" });
    await client.connect(transport);
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    try {
      expect(await names()).toContain("everything_echo");

      await store.save({ name: "echoes", tools: ["everything.get-env"] });
      const narrowed = await names();
      expect(narrowed).not.toContain("everything_echo");

      await store.save({ name: "echoes", tools: ["everything.echo"] });
      expect(await names()).toContain("everything_echo");

      await writeFile(join(home.dir, "toolsets.json"), "{ not json", { mode: 0o600 });
      expect(await names()).toContain("everything_echo");
      await waitFor(() => log.includes("toolset echoes:") && log.includes("changed, but"), 5_000, "the warning");
      expect(log).toContain("keeping the toolset as it was equipped before");

      await writeFile(join(home.dir, "toolsets.json"), JSON.stringify({ version: 1, toolsets: {} }), { mode: 0o600 });
      expect(await names()).toContain("everything_echo");
      await waitFor(() => log.split("changed, but").length >= 3, 5_000, "the second warning");
    } finally {
      await client.close();
    }
  });
});
