import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { startGateway } from "../../src/gateway/index.js";
import { isAlive } from "../support/processes.js";
import { fixtureServer, jsonOf, makeHome, type TestHome } from "./helpers.js";
import { bearerTransport, startServeProcess, tokenFileFlags } from "./serve-process.js";

const TOKEN = "probe-token-0123456789abcdef";

describe("/healthz and /readyz", () => {
  let home: TestHome;

  beforeAll(async () => {
    home = await makeHome({ servers: { good: fixtureServer("/dev/null"), broken: fixtureServer("/dev/null", "--mode exit-at-start") } });
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  it("alive always; ready only when every approved server answers, details only with a token", async () => {
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    try {
      const base = new URL(running.url as string);
      const healthz = await fetch(new URL("/healthz", base));
      expect(healthz.status).toBe(200);
      const readyz = await fetch(new URL("/readyz", base));
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toEqual({ status: "not ready", failing: 1 });
      const detailed = (await (await fetch(new URL("/readyz", base), { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { failing: Array<{ server: string }> };
      expect(detailed.failing.map((f) => f.server)).toEqual(["broken"]);
    } finally {
      await running.close();
    }
    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    delete config.mcpServers.broken;
    await writeFile(join(home.dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
    const healthy = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    try {
      const readyz = await fetch(new URL("/readyz", new URL(healthy.url as string)));
      expect(readyz.status).toBe(200);
      expect(await readyz.json()).toEqual({ status: "ready", failing: 0 });
    } finally {
      await healthy.close();
    }
  });
});

describe("SIGTERM drains", () => {
  let home: TestHome;
  let serveFlags: string[];

  beforeAll(async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    serveFlags = await tokenFileFlags(home.dir, TOKEN);
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  it("stops accepting, lets the call in flight finish, closes upstreams, exits 0", { timeout: 180_000 }, async () => {
    const serve = await startServeProcess(home.env, serveFlags);
    const client = new Client({ name: "drain", version: "1" });
    try {
      await client.connect(bearerTransport(serve.url, TOKEN));
      const pid = jsonOf<{ result: { pid: number } }>(await client.callTool({ name: "run_mcp_script", arguments: { script: 'return await require("host:mcp-fixture").pid({})' } }));
      const upstream = pid.result.pid;
      expect(isAlive(upstream)).toBe(true);
      const slow = client.callTool({ name: "run_mcp_script", arguments: { script: 'await require("host:mcp-fixture").sleep({ ms: 2500 }); return "finished";' } });
      await new Promise((r) => setTimeout(r, 700));
      serve.child.kill("SIGTERM");
      // Stops accepting: a new connection is refused while the call still runs.
      await new Promise((r) => setTimeout(r, 300));
      await expect(fetch(new URL("/healthz", serve.url))).rejects.toThrow();
      const result = await slow;
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(jsonOf<{ result: unknown }>(result).result).toBe("finished");
      expect(await serve.exited).toBe(0);
      expect(isAlive(upstream)).toBe(false);
    } finally {
      await client.close().catch(() => undefined);
      serve.child.kill("SIGKILL");
    }
  });
});
