import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFollower, readGatewayConfig, type ReadConfig } from "../../src/gateway/config-follow.js";
import type { ServersDiff } from "../../src/gateway/config-diff.js";

// The follower with real files and the real config readers; the gateway's side of `apply` is recorded.

const server = (script: string) => ({ command: "node", args: [script] });

describe("ConfigFollower", () => {
  let dir: string;
  let file: string;
  let log: string;
  let applied: { servers: string[]; diff: ServersDiff }[];
  let follower: ConfigFollower;

  const write = (config: unknown) => writeFile(file, typeof config === "string" ? config : JSON.stringify(config), { mode: 0o600 });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-follow-"));
    file = join(dir, "config.json");
    await write({ mcpServers: { a: server("a.js") }, gateway: { maxSessions: 10 } });
    log = "";
    applied = [];
    const out = new Writable({ write: (chunk: Buffer, _encoding, done) => void ((log += chunk.toString("utf8")), done()) });
    const read = (): Promise<ReadConfig> => readGatewayConfig(file);
    const start = await read();
    follower = new ConfigFollower({
      file,
      logger: pino({ level: "info" }, out),
      running: start.config,
      servers: start.servers,
      read,
      apply: async (next, diff) => void applied.push({ servers: Object.keys(next.servers), diff }),
      redact: (text) => text,
      intervalMs: 60_000,
    });
  });
  afterEach(async () => {
    await follower.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("applies an edit once, and nothing when the file is unchanged", async () => {
    await follower.check();
    expect(applied).toEqual([]);
    await write({ mcpServers: { a: server("a.js"), b: server("b.js") }, gateway: { maxSessions: 10 } });
    await follower.check();
    await follower.check();
    expect(applied).toEqual([{ servers: ["a", "b"], diff: { added: ["b"], removed: [], changed: [], unchanged: ["a"] } }]);
    expect(log).toContain("MCP servers added: b");
  });

  it("keeps the last good servers through invalid edits, saying what and where once per problem", async () => {
    await follower.check();
    await write("{ broken");
    await follower.check();
    await write({ mcpServers: { a: { command: 42 } } });
    await follower.check();
    await follower.check();
    await write({ mcpServers: {}, plugins: { mcp: { config: { maxLiveConnections: 0 } } } });
    await follower.check();
    await write({ mcpServers: {}, gateway: { maxSessions: "many" } });
    await follower.check();
    expect(applied).toEqual([]);
    expect(log.match(/cannot be used/g)).toHaveLength(4);
    expect(log).toContain("line 1, column");
    expect(log).toContain("mcpServers.a.command");
    expect(log).toContain("plugins.mcp.config.maxLiveConnections");
    expect(log).toContain("gateway.maxSessions");
    expect(log).toContain("(MCP servers: a)");
    // Fixed: compared with the last good configuration, not with the broken one.
    await write({ mcpServers: { a: server("a2.js") }, gateway: { maxSessions: 10 } });
    await follower.check();
    expect(applied.map((a) => a.diff.changed)).toEqual([["a"]]);
  });

  it("names settings that need a restart once per distinct change, and applies the servers anyway", async () => {
    await write({ mcpServers: {}, gateway: { maxSessions: 20 }, engine: "quickjs" });
    await follower.check();
    await write({ mcpServers: {}, gateway: { maxSessions: 20 }, engine: "quickjs", limits: undefined });
    await follower.check();
    expect(log.match(/needs a restart/g)).toHaveLength(1);
    expect(log).toContain("engine, gateway.maxSessions changed; that needs a restart");
    expect(applied.map((a) => a.diff.removed)).toEqual([["a"]]);
  });
});
