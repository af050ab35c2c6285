import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, makeHome, ROOT, type TestHome } from "./helpers.js";

const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");
const ALL = ["debug:debug message", "info:info message", "warning:warning message", "error:error message"];

/**
 * A 2025 client that never sent logging/setLevel got every log message of a 2025 upstream (a 2025
 * server with no level set sends what it decides: the SDK's, everything) but none of a 2026-07-28
 * upstream's (that era logs only for a request naming a level, and none was named). The same client
 * now gets the same from both: its calls name "debug" to a 2026-07-28 upstream, as if no level were
 * set on a 2025 one. The same fixture server behind two gateways, one speaking each era to it.
 */
const homes: TestHome[] = [];
const gateways: Record<"legacy" | "modern", RunningGateway | undefined> = { legacy: undefined, modern: undefined };

beforeAll(async () => {
  for (const era of ["legacy", "modern"] as const) {
    const home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL] } }, gateway: { upstreamProtocol: era === "legacy" ? "legacy" : "auto" } });
    homes.push(home);
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
    gateways[era] = running;
    expect((await running.gateway.service.clients.connect("full")).protocol.era).toBe(era);
  }
}, 90_000);

afterAll(async () => {
  for (const running of Object.values(gateways)) await running?.close();
  for (const home of homes) await home.cleanup();
});

/** A 2025 client that declares elicitation (so its calls take the SDK path, where log messages can reach it) and sets no level. */
async function logsOfOneCall(running: RunningGateway): Promise<string[]> {
  const messages: string[] = [];
  const client = new Client({ name: "no-level", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  client.setNotificationHandler("notifications/message", (n) => void messages.push(`${n.params.level}:${String(n.params.data)}`));
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
  try {
    expect(client.getProtocolEra() ?? "legacy").toBe("legacy");
    expect(firstText(await client.callTool({ name: "log_levels", arguments: {} }))).toBe("logged");
    return messages;
  } finally {
    await client.close();
  }
}

describe("a 2025 client that never set a log level", () => {
  it("gets the same log messages from a 2025 and a 2026-07-28 upstream: all of them", async () => {
    const fromLegacy = await logsOfOneCall(gateways.legacy as RunningGateway);
    expect(fromLegacy).toEqual(ALL);
    // Before: [] (the call named no level to the 2026-07-28 upstream, which then sent none).
    expect(await logsOfOneCall(gateways.modern as RunningGateway)).toEqual(fromLegacy);
  }, 60_000);
});
