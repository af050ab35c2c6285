import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolsetStore } from "../../src/gateway/index.js";
import { isAlive } from "../support/processes.js";
import { fixtureServer, makeHome, waitFor, type TestHome } from "./helpers.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "./round-robin-proxy.js";
import { startServeProcess, type ServeProcess } from "./serve-process.js";

/**
 * Three `mcpvm serve --http` processes sharing one config home behind a round-robin balancer with
 * no stickiness. 2026-07-28 clients are stateless; 2025-11-25 clients keep a session whose signed
 * id every replica can verify and rebuild.
 */
const TOKEN = "replica-token-0123456789abcdef";
const CLIENTS = 10;
// The full figure (300 calls each) runs with `npm run test:replicas` (about 6 minutes on a loaded
// 2-core machine); the normal suite runs the same test with fewer calls per client.
const CALLS = Number(process.env.MCPVM_REPLICA_CALLS ?? 30);

const KILL_CALLS = 30;

type AnyClient = { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>; close(): Promise<void> };

function textOf(result: unknown): string {
  return JSON.stringify((result as { content?: unknown }).content ?? result);
}

async function connect(url: URL, modern: boolean): Promise<AnyClient> {
  const headers = { authorization: `Bearer ${TOKEN}` };
  if (modern) {
    const client = new Client({ name: "replica-modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    return client as unknown as AnyClient;
  }
  const client = new V1Client({ name: "replica-legacy", version: "1" });
  await client.connect(new V1HttpTransport(url, { requestInit: { headers } }));
  return client as unknown as AnyClient;
}

/** One call, direct or through run_mcp_script, whose answer must carry exactly this call's marker. */
async function call(client: AnyClient, marker: string, script: boolean): Promise<string> {
  const result = script
    ? await client.callTool({ name: "run_mcp_script", arguments: { script: `return await require("host:mcp-fixture").echo({ text: ${JSON.stringify(marker)} });` } })
    : await client.callTool({ name: "fixture_echo", arguments: { text: marker } });
  if ((result as { isError?: boolean }).isError === true) throw new Error(`tool error: ${textOf(result)}`);
  return textOf(result);
}

async function waitUntilReady(url: URL): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await fetch(new URL("/readyz", url)).then((r) => r.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`replica ${url.href} not ready (last status ${status})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("replicas behind a round-robin balancer", () => {
  let home: TestHome;
  let startsFile: string;
  const replicas: ServeProcess[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    startsFile = join("/tmp", `mcpvm-replica-starts-${process.pid}.txt`);
    await writeFile(startsFile, "");
    home = await makeHome({ servers: { fixture: fixtureServer(startsFile) }, gateway: { healthIntervalMs: 0 } });
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "echoes", tools: ["fixture.echo"] });
    await writeFile(join(home.dir, "token"), `${TOKEN}\n`, { mode: 0o600 });
    const args = ["--token-file", join(home.dir, "token"), "--toolset", "echoes"];
    replicas.push(...(await Promise.all([0, 1, 2].map(() => startServeProcess(home.env, args)))));
    // As a balancer would: traffic only once each replica is ready (its upstream answers).
    await Promise.all(replicas.map((r) => waitUntilReady(r.url)));
    proxy = await startRoundRobinProxy(replicas.map((r) => ({ port: Number(r.url.port) })));
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    for (const replica of replicas) replica.child.kill("SIGKILL");
    await home?.cleanup();
  });

  it(`${CLIENTS} clients x ${CALLS} calls, direct and run_mcp_script, 2026 and 2025 clients: 0 lost, 0 crossed`, { timeout: 600_000 }, async () => {
    let lost = 0;
    let crossed = 0;
    const errors: string[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const client = await connect(proxy.url, c % 2 === 0);
        try {
          for (let j = 0; j < CALLS; j++) {
            const marker = `client-${c}-call-${j}-`;
            try {
              const text = await call(client, marker, j % 2 === 1);
              if (!text.includes(marker) || /client-\d+-call-\d+-/g.exec(text)?.[0] !== marker) crossed++;
            } catch (error) {
              lost++;
              errors.push((error as Error).message);
            }
          }
        } finally {
          await client.close();
        }
      }),
    );
    expect({ lost, crossed }, errors.slice(0, 5).join("\n")).toEqual({ lost: 0, crossed: 0 });
    // Round robin really spread the load (every replica served a third, give or take).
    for (const served of proxy.perReplica) expect(served).toBeGreaterThan((CLIENTS * CALLS) / 6);
  });

  it("SIGKILL of one replica mid-load: only its calls in flight fail, retries succeed elsewhere; a restart rejoins; no upstream left behind", { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    let done = 0;
    const victim = replicas[1] as ServeProcess;
    const load = Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const client = await connect(proxy.url, c % 2 === 0);
        try {
          for (let j = 0; j < KILL_CALLS; j++) {
            const marker = `client-${c}-kill-${j}-`;
            for (let attempt = 1; ; attempt++) {
              try {
                const text = await call(client, marker, j % 2 === 1);
                expect(text).toContain(marker);
                done++;
                break;
              } catch (error) {
                failures.push((error as Error).message);
                if (attempt >= 4) throw error;
              }
            }
          }
        } finally {
          await client.close();
        }
      }),
    );
    await waitFor(() => done >= CLIENTS * 5, 120_000, "load under way");
    victim.child.kill("SIGKILL");
    await load;
    expect(done).toBe(CLIENTS * KILL_CALLS);
    // Only the calls in flight on the killed replica failed (at most one per client), each with an error, never a wrong answer.
    expect(failures.length, failures.join("\n")).toBeLessThanOrEqual(CLIENTS);
    for (const failure of failures) expect(failure).not.toMatch(/client-\d+-kill-\d+-/);

    // The killed replica's upstream servers end with it (their stdin closes).
    const pids = (await readFile(startsFile, "utf8")).trim().split("\n").map((line) => Number(line.split(" ")[0]));
    expect(pids.length).toBeGreaterThanOrEqual(3);

    // A restart on the same port rejoins the rotation and serves sessions begun elsewhere.
    const restarted = await startServeProcess(home.env, ["--token-file", join(home.dir, "token"), "--toolset", "echoes"], Number(victim.url.port));
    await waitUntilReady(restarted.url);
    replicas[1] = restarted;
    proxy.revive(1);
    const before = proxy.perReplica[1] ?? 0;
    const legacy = await connect(proxy.url, false);
    for (let j = 0; j < 9; j++) expect(await call(legacy, `after-restart-${j}-`, j % 2 === 1)).toContain(`after-restart-${j}-`);
    await legacy.close();
    expect((proxy.perReplica[1] ?? 0) - before).toBeGreaterThanOrEqual(3);

    // SIGTERM every replica: each exits 0 and no upstream server process is left, the killed one's included.
    for (const replica of replicas) replica.child.kill("SIGTERM");
    expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([0, 0, 0]);
    const all = (await readFile(startsFile, "utf8")).trim().split("\n").map((line) => Number(line.split(" ")[0]));
    await waitFor(() => all.every((pid) => !isAlive(pid)), 10_000, `upstream servers ${all.filter(isAlive).join(", ")} to end`);
  });
});
