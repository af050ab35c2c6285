// A raw JSON-RPC client on the stdio face of an in-process gateway (PassThrough streams), for the
// stdio fast-lane tests: lines written as the SDK's clients write them, every line read kept.
import { PassThrough } from "node:stream";
import { join } from "node:path";
import { startGateway, ToolsetStore, type RunningGateway } from "../../src/gateway/index.js";
import { fixtureServer, makeHome, ROOT, type TestHome } from "./helpers.js";

const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

export type Message = Record<string, unknown>;

export class LineClient {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  /** Every message the gateway wrote, in order. */
  readonly received: Message[] = [];
  private buffered = "";
  private waiters: Array<() => void> = [];

  constructor() {
    this.stdout.setEncoding("utf8");
    this.stdout.on("data", (chunk: string) => {
      this.buffered += chunk;
      let index: number;
      while ((index = this.buffered.indexOf("\n")) !== -1) {
        this.received.push(JSON.parse(this.buffered.slice(0, index)) as Message);
        this.buffered = this.buffered.slice(index + 1);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(message: Message): void {
    this.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** The answer to request `id` (a response: result or error). */
  async answer(id: string | number, timeoutMs = 20_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((m) => m.id === id && ("result" in m || "error" in m));
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${String(id)} within ${timeoutMs} ms; received ${JSON.stringify(this.received).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async request(id: string | number, method: string, params: unknown): Promise<Message> {
    this.send({ jsonrpc: "2.0", id, method, params });
    return this.answer(id);
  }

  /** The 2025 handshake, as SDK clients do it (initialize, then notifications/initialized). */
  async initialize(capabilities: Record<string, unknown> = {}, protocolVersion = "2025-11-25"): Promise<Message> {
    const answer = await this.request("init", "initialize", { protocolVersion, capabilities, clientInfo: { name: "stdio-lane-test", version: "1" } });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return answer;
  }
}

export interface StdioPair {
  readonly home: TestHome;
  /** Opens a connection to a fresh gateway on the shared home: the fast lane on or off. */
  connect(fast: boolean): Promise<{ client: LineClient; gateway: RunningGateway }>;
  close(): Promise<void>;
}

/** One home (fixture servers "fixture" and "other", a full-features server "full", toolset "t"); each connection its own gateway. */
export async function stdioPair(): Promise<StdioPair> {
  const home = await makeHome({
    servers: { fixture: fixtureServer("/dev/null"), other: fixtureServer("/dev/null"), full: { command: process.execPath, args: [FULL] } },
    gateway: { healthIntervalMs: 0 },
  });
  await new ToolsetStore(join(home.dir, "toolsets.json")).save({
    name: "t",
    tools: ["fixture.echo", "fixture.fail", "fixture.echo_json", "fixture.huge", "fixture.mixed", "fixture.sleep", "other.echo", "full.test_elicitation", "full.test_sampling", "full.test_tool_with_logging"],
  });
  const open: RunningGateway[] = [];
  return {
    home,
    connect: async (fast) => {
      const client = new LineClient();
      const env = fast ? home.env : { ...home.env, MCPVM_GATEWAY_FAST_LANE: "0" };
      const gateway = await startGateway({ env, stdin: client.stdin, stdout: client.stdout, logLevel: "silent", toolset: "t" });
      open.push(gateway);
      return { client, gateway };
    },
    close: async () => {
      await Promise.all(open.map((g) => g.close()));
      await home.cleanup();
    },
  };
}
