import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, makeHome, ROOT, waitFor, type TestHome } from "./helpers.js";

/**
 * 2026-07-28 clients of the gateway: an upstream's elicitation or sampling during their call
 * reaches them as `input_required` rounds (the SDK v2 client answers them with its own handlers
 * and retries), with a 2025-era upstream and with a 2026 upstream; resource updates reach them
 * through `subscriptions/listen`. The reverse pairing (2025 client, 2026 upstream) is in
 * passthrough.test.ts.
 */
const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");

interface Modern {
  readonly client: Client;
  readonly asked: string[];
  readonly updates: string[];
}

/** A 2026-07-28 client that answers elicitation and sampling (unless told not to) and records what it was asked. */
async function modernClient(url: string, answers: { elicit?: Record<string, unknown>; capabilities?: boolean } = {}): Promise<Modern> {
  const asked: string[] = [];
  const updates: string[] = [];
  const capabilities = answers.capabilities === false ? {} : { elicitation: { form: {} }, sampling: {} };
  const client = new Client({ name: "modern-rounds", version: "1" }, { versionNegotiation: { mode: "auto" }, capabilities });
  if (answers.capabilities !== false) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(`elicit:${request.params.message}`);
      return { action: "accept", content: (answers.elicit ?? { response: "from the 2026 client" }) as Record<string, string> };
    });
    client.setRequestHandler("sampling/createMessage", async (request) => {
      const content = request.params.messages[0]?.content;
      asked.push(`sample:${content !== undefined && "text" in content ? String(content.text) : ""}`);
      return { role: "assistant", content: { type: "text", text: "modern-sampled" }, model: "test-model" };
    });
  }
  client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getProtocolEra()).toBe("modern");
  return { client, asked, updates };
}

for (const upstream of ["legacy", "auto"] as const) {
  const label = upstream === "legacy" ? "a 2025-11-25 upstream" : "a 2026-07-28 upstream";

  describe(`a 2026-07-28 client through the gateway, ${label}`, () => {
    let home: TestHome;
    let running: RunningGateway;
    /** What `other` records (full-features.mjs recordEvent): which calls it has started. */
    let eventsFile: string;

    beforeAll(async () => {
      // `other` keeps a second client's call in flight on another server (the script tests below).
      home = await makeHome({ servers: { full: { command: process.execPath, args: [FULL] }, other: { command: process.execPath, args: [FULL], env: { MCPVM_FULL_EVENTS: "${MCPVM_TEST_EVENTS}" } } }, gateway: { upstreamProtocol: upstream } });
      eventsFile = join(home.dir, "full-events.txt");
      running = await startGateway({ env: { ...home.env, MCPVM_TEST_EVENTS: eventsFile }, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
    });

    afterAll(async () => {
      await running?.close();
      await home?.cleanup();
    });

    it("gets the upstream's elicitation as an input_required round, answers it, and gets the tool's result", async () => {
      const { client, asked } = await modernClient(running.url as string, { elicit: { response: "answered in a round" } });
      try {
        const result = await client.callTool({ name: "test_elicitation", arguments: { message: "what now?" } });
        expect(firstText(result)).toBe('User response: action=accept, content={"response":"answered in a round"}');
        expect(asked).toEqual(["elicit:what now?"]);
        const era = (await running.gateway.service.clients.connect("full")).protocol.era;
        expect(era).toBe(upstream === "legacy" ? "legacy" : "modern");
        // Nothing is left waiting once the call is answered.
        expect(running.passthrough.rounds.waiting).toBe(0);
      } finally {
        await client.close();
      }
    });

    it("gets the upstream's sampling request as an input_required round", async () => {
      const { client, asked } = await modernClient(running.url as string);
      try {
        expect(firstText(await client.callTool({ name: "test_sampling", arguments: { prompt: "write a haiku" } }))).toBe("LLM response: modern-sampled");
        expect(asked).toEqual(["sample:write a haiku"]);
      } finally {
        await client.close();
      }
    });

    // Each way a script calls takes its own path into the host. Another client's call is in flight meanwhile (a script
    // waiting on the `other` server), so "the only gateway call in flight" names nobody: the question reaches the client
    // that ran the script only because the script's call carries that client's request as its origin.
    const SCRIPTS = {
      "a module call": 'return require("host:mcp-full").test_elicitation({ message: "from a script" });',
      "a $batch item": 'const [item] = require("host:mcp-full").$batch("test_elicitation", [{ message: "from a script" }]); if (!item.ok) throw new Error(item.error.message); return item.value;',
      "the tools global": 'return await tools.full.test_elicitation({ message: "from a script" });',
    };
    for (const [how, script] of Object.entries(SCRIPTS)) {
      it(`a guest script (run_mcp_script) whose call elicits (${how}) is answered the same way, by the client that ran it`, async () => {
        const { client, asked } = await modernClient(running.url as string, { elicit: { response: "for the script" } });
        const other = await modernClient(running.url as string, { elicit: { response: "from the other client" } });
        const busy = new AbortController();
        try {
          const waiting = `return require("host:mcp-other").slow_echo({ text: ${JSON.stringify(`busy ${how}`)}, ms: 60000 });`;
          const inFlight = other.client.callTool({ name: "run_mcp_script", arguments: { script: waiting, timeoutMs: 90_000 } }, { signal: busy.signal }).catch(() => undefined);
          await waitFor(() => existsSync(eventsFile) && readFileSync(eventsFile, "utf8").includes(`started slow_echo busy ${how}`), 45_000, "the other client's call reached its upstream");
          const result = await client.callTool({ name: "run_mcp_script", arguments: { script } });
          expect(firstText(result)).toContain('User response: action=accept, content={\\"response\\":\\"for the script\\"}');
          expect(asked).toEqual(["elicit:from a script"]);
          expect(other.asked).toEqual([]);
          busy.abort();
          await inFlight;
        } finally {
          busy.abort();
          await client.close();
          await other.client.close();
        }
        // A script run on each of two clients and an upstream call between them: at load 20 the first one took over 20 s.
      }, 90_000);
    }

    it("bad input: an answer off the requested schema ends the call with a clear error; the next call works", async () => {
      const { client } = await modernClient(running.url as string, { elicit: { response: 42 } });
      try {
        const failed = await client.callTool({ name: "test_elicitation", arguments: { message: "type a string" } }).catch((error: unknown) => error as Error);
        expect(failed).toBeInstanceOf(Error);
        expect((failed as Error).message).toMatch(/does not match the requested schema.*response.*string/);
        expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
        await waitFor(() => (running.passthrough.rounds.waiting) === 0, 5_000, "no call left waiting");
      } finally {
        await client.close();
      }
    });

    it("a client that cannot answer (no elicitation capability) gets the upstream's decline, not a round", async () => {
      const { client } = await modernClient(running.url as string, { capabilities: false });
      try {
        expect(firstText(await client.callTool({ name: "test_elicitation", arguments: { message: "anyone?" } }))).toBe("User response: action=decline, content={}");
      } finally {
        await client.close();
      }
    });

    it("a retry with a requestState the gateway does not hold is refused with what to do", async () => {
      const { client } = await modernClient(running.url as string);
      try {
        const refused = await client
          .callTool({ name: "test_simple_text", arguments: {}, requestState: "not-a-state-of-ours", inputResponses: {} } as Parameters<Client["callTool"]>[0])
          .catch((error: unknown) => error as Error);
        expect((refused as Error).message).toMatch(/Unknown or expired requestState.*call the tool again without requestState/);
      } finally {
        await client.close();
      }
    });

    it("bad input from a 2026 client: an unknown URI, a prompt without its required arguments — clear errors", async () => {
      const { client } = await modernClient(running.url as string);
      try {
        await expect(client.readResource({ uri: "test://nobody-has-this" })).rejects.toThrow(/Resource not found: test:\/\/nobody-has-this/);
        await expect(client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "only one" } })).rejects.toMatchObject({ code: -32602 });
        expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
      } finally {
        await client.close();
      }
    });

    it("resource updates through subscriptions/listen (no 2025 session involved); a URI nobody serves is refused", async () => {
      const { client, updates } = await modernClient(running.url as string);
      try {
        const subscription = await client.listen({ resourceSubscriptions: ["test://watched-resource"] });
        await client.callTool({ name: "touch_watched", arguments: {} });
        await waitFor(() => updates.includes("test://watched-resource"), 10_000, "resources/updated on the listen stream");
        await subscription.close();
        await expect(client.listen({ resourceSubscriptions: ["test://nobody-serves-this"] })).rejects.toThrow(/No server behind this gateway serves test:\/\/nobody-serves-this/);
      } finally {
        await client.close();
      }
    });
  });
}
