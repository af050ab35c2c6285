import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { isAlive } from "../support/processes.js";
import { fixtureServer, jsonOf, makeHome, waitFor, type TestHome } from "./helpers.js";
import { startServeProcess, type ServeProcess } from "./serve-process.js";

// How editors save config.json while a gateway follows it: an editor that renames the old file aside
// and then writes the new one (vim's default on many systems, some IDEs' "safe write") leaves a moment
// with no config.json at all. That moment is not an edit removing every server.

type Script = { result: unknown; error?: { message: string } };

async function alphaPid(client: Client): Promise<unknown> {
  const script = `return (await require("host:mcp-alpha").pid()).pid;`;
  return jsonOf<Script>(await client.callTool({ name: "run_mcp_script", arguments: { script } })).result;
}

describe("a running gateway and an editor saving config.json", () => {
  let home: TestHome;
  let dir: string;
  let serve: ServeProcess | undefined;
  const configFile = () => join(home.dir, "config.json");

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-reload-saves-"));
    home = await makeHome({ servers: { alpha: fixtureServer(join(dir, "alpha.starts")) }, gateway: { healthIntervalMs: 0 } });
  }, 180_000);
  afterAll(async () => {
    if (serve !== undefined && serve.child.exitCode === null) {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
    await home?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps its servers while config.json is briefly missing (renamed aside, then written anew)", { timeout: 180_000 }, async () => {
    serve = await startServeProcess(home.env, ["--no-auth"]);
    const client = new Client({ name: "saves", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(serve.url));
    try {
      const pid = await alphaPid(client);
      expect(typeof pid).toBe("number");
      const text = await readFile(configFile(), "utf8");
      await rename(configFile(), `${configFile()}~`);
      // Longer than the idle check's 1 s, and a request made meanwhile checks the file too.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await alphaPid(client)).toBe(pid);
      await new Promise((r) => setTimeout(r, 1_000));
      await writeFile(configFile(), text, { mode: 0o600 });
      await waitFor(() => serve?.stderr().includes("config.json is missing") === true, 20_000, "the log saying config.json is missing");
      // The same process answers: alpha was neither removed nor started again.
      expect(await alphaPid(client)).toBe(pid);
      expect(isAlive(pid as number)).toBe(true);
      expect((await readFile(join(dir, "alpha.starts"), "utf8")).trim().split("\n")).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
