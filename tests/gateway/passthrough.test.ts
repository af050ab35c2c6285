import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { firstText, makeHome, ROOT, waitFor, type TestHome } from "./helpers.js";

const FULL = join(ROOT, "tests/fixtures/servers/full-server.mjs");
const full = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FULL], ...extra });

type Notification = { method: string; params?: Record<string, unknown> };

/** A 2025-era SDK v2 client that answers elicitation and sampling and records every notification. */
async function legacyClient(url: string, answers: { elicit?: Record<string, string | number | boolean | string[]> } = {}): Promise<{ client: Client; notes: Notification[]; asked: string[] }> {
  const notes: Notification[] = [];
  const asked: string[] = [];
  const client = new Client({ name: "pass-through-test", version: "1" }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(`elicit:${request.params.message}`);
    return { action: "accept", content: answers.elicit ?? { response: "from the client" } };
  });
  client.setRequestHandler("sampling/createMessage", async (request) => {
    const content = request.params.messages[0]?.content;
    asked.push(`sample:${content !== undefined && "text" in content ? String(content.text) : ""}`);
    return { role: "assistant", content: { type: "text", text: "client-sampled" }, model: "test-model" };
  });
  for (const method of ["notifications/message", "notifications/resources/updated", "notifications/resources/list_changed", "notifications/prompts/list_changed"] as const) {
    client.setNotificationHandler(method, (n) => void notes.push(n as Notification));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, notes, asked };
}

describe("gateway pass-through, --expose full (one server under its own names)", () => {
  let home: TestHome;
  let running: RunningGateway;

  beforeAll(async () => {
    // test://big-binary is 1 MiB: over this cap, so reading it is refused with a clear error.
    home = await makeHome({ servers: { full: full({ maxResponseBytes: 64 * 1024 }) } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("declares every capability and lists the exposed tools beside the gateway's own", async () => {
    const { client } = await legacyClient(running.url as string);
    try {
      expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} });
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["run_mcp_script", "test_simple_text", "test_elicitation"]));
      expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
    } finally {
      await client.close();
    }
  });

  it("passes resources (text, binary, template), prompts and completion through unchanged", async () => {
    const { client } = await legacyClient(running.url as string);
    try {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["test://static-text", "test://static-binary"]));
      expect((await client.readResource({ uri: "test://static-text" })).contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
      expect((await client.readResource({ uri: "test://static-binary" })).contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.stringMatching(/^iVBOR/) });
      expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("test://template/{id}/data");
      const templated = (await client.readResource({ uri: "test://template/7/data" })).contents[0] as { text: string };
      expect(JSON.parse(templated.text)).toMatchObject({ id: "7" });
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("test_prompt_with_arguments");
      const prompt = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "x", arg2: "y" } });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='x', arg2='y'" });
      const completed = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "b" } });
      expect(completed.completion.values).toEqual(["beta"]);
      const byTemplate = await client.complete({ ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "12" } });
      expect(byTemplate.completion.values).toEqual(["123", "124"]);
    } finally {
      await client.close();
    }
  });

  it("forwards progress, log messages, subscriptions and their updates to the client", async () => {
    const { client, notes } = await legacyClient(running.url as string);
    try {
      const progress: number[] = [];
      await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
      expect(progress).toEqual([0, 50, 100]);
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      await waitFor(() => notes.filter((n) => n.method === "notifications/message").length >= 3, 5_000, "three log messages");
      expect(notes.find((n) => n.method === "notifications/message")?.params).toMatchObject({ level: "info", logger: "full/mcpvm-full-fixture", data: "Tool execution started" });
      await client.setLoggingLevel("error");
      await client.subscribeResource({ uri: "test://watched-resource" });
      await client.callTool({ name: "touch_watched", arguments: {} });
      await waitFor(() => notes.some((n) => n.method === "notifications/resources/updated"), 5_000, "resources/updated");
      expect(notes.find((n) => n.method === "notifications/resources/updated")?.params).toEqual({ uri: "test://watched-resource" });
      await client.unsubscribeResource({ uri: "test://watched-resource" });
      await client.callTool({ name: "change_lists", arguments: {} });
      await waitFor(() => notes.some((n) => n.method === "notifications/prompts/list_changed"), 5_000, "prompts list_changed");
      expect(notes.some((n) => n.method === "notifications/resources/list_changed")).toBe(true);
      expect(notes.filter((n) => n.method === "notifications/resources/updated")).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("sends the upstream's elicitation and sampling requests to the client whose call caused them", async () => {
    const first = await legacyClient(running.url as string, { elicit: { response: "first client" } });
    const second = await legacyClient(running.url as string, { elicit: { response: "second client" } });
    try {
      const a = await first.client.callTool({ name: "test_elicitation", arguments: { message: "who are you?" } });
      expect(firstText(a)).toBe('User response: action=accept, content={"response":"first client"}');
      const b = await second.client.callTool({ name: "test_sampling", arguments: { prompt: "hello" } });
      expect(firstText(b)).toBe("LLM response: client-sampled");
      expect(first.asked).toEqual(["elicit:who are you?"]);
      expect(second.asked).toEqual(["sample:hello"]);
      // Two clients' calls in flight on one stdio server: nothing on the wire says whose the
      // elicitation is, so it is declined rather than shown to the wrong person.
      const slow = first.client.callTool({ name: "slow_echo", arguments: { text: "busy", ms: 1_500 } });
      await new Promise((r) => setTimeout(r, 300));
      const ambiguous = await second.client.callTool({ name: "test_elicitation", arguments: { message: "whose?" } });
      expect(firstText(ambiguous)).toBe("User response: action=decline, content={}");
      expect(firstText(await slow)).toBe("busy");
      expect([...first.asked, ...second.asked]).not.toContain("elicit:whose?");
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });

  it("a 2026-07-28 client gets resources, prompts and completion of the 2025-era upstream, and its elicitation as an input_required round", async () => {
    const client = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { response: "asked in a round" } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect((await client.readResource({ uri: "test://static-text" })).contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
      const prompt = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "m", arg2: "n" } });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='m', arg2='n'" });
      expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
      const elicited = await client.callTool({ name: "test_elicitation", arguments: { message: "modern?" } });
      expect(firstText(elicited)).toBe('User response: action=accept, content={"response":"asked in a round"}');
    } finally {
      await client.close();
    }
  });

  it("bad input: unknown URI, missing prompt arguments, an answer off the schema, a binary over the cap, a flood — each a clear error, and the gateway carries on", async () => {
    const { client, notes } = await legacyClient(running.url as string, { elicit: { response: 42 } });
    try {
      // -32602 on the wire (the SDK never sends -32002, the older code; docs/GATEWAY.md says so).
      const unknown = client.readResource({ uri: "test://nobody-has-this" });
      await expect(unknown).rejects.toThrow(/Resource not found: test:\/\/nobody-has-this/);
      await expect(unknown).rejects.toMatchObject({ code: -32602 });
      await expect(client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "only one" } })).rejects.toMatchObject({ code: -32602 });
      await expect(client.getPrompt({ name: "no_such_prompt" })).rejects.toMatchObject({ code: -32602 });
      // The client's answer (response: 42) does not match the requested schema (a string).
      const offSchema = await client.callTool({ name: "test_elicitation", arguments: { message: "type a string" } }).catch((error: unknown) => error);
      expect(JSON.stringify(offSchema)).toMatch(/schema|-32602|invalid/i);
      const big = await client.readResource({ uri: "test://big-binary" }).catch((error: unknown) => error as Error);
      expect((big as Error).message).toMatch(/over its maxResponseBytes \(65536\)/);
      await client.setLoggingLevel("debug");
      const flooded = await client.callTool({ name: "flood", arguments: { kind: "log", count: 2_000 } });
      expect(firstText(flooded)).toBe("sent 2000");
      // Capped at maxNotificationsPerSecond (50/s) per server; the rest were dropped and counted.
      expect(notes.filter((n) => n.method === "notifications/message").length).toBeLessThan(200);
      expect(firstText(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
      // A progress flood is capped the same way, and another client's calls meanwhile are answered.
      const other = await legacyClient(running.url as string);
      try {
        let heard = 0;
        const flooding = client.callTool({ name: "flood", arguments: { kind: "progress", count: 5_000 } }, { onprogress: () => void (heard += 1) });
        expect(firstText(await other.client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
        expect(firstText(await flooding)).toBe("sent 5000");
        expect(heard).toBeGreaterThan(0);
        expect(heard).toBeLessThan(500);
      } finally {
        await other.client.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe("gateway pass-through over several servers (no --expose)", () => {
  let home: TestHome;
  let running: RunningGateway;

  beforeAll(async () => {
    home = await makeHome({ servers: { alpha: full(), beta: full() } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("flattens prompt names like tools, keeps URIs, and serves a URI claimed by two servers from the first", async () => {
    const { client } = await legacyClient(running.url as string);
    try {
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toEqual(expect.arrayContaining(["alpha_test_simple_prompt", "beta_test_simple_prompt"]));
      const got = await client.getPrompt({ name: "beta_test_prompt_with_arguments", arguments: { arg1: "1", arg2: "2" } });
      expect(got.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='1', arg2='2'" });
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      // Both list test://static-text; it is listed once (alpha's) and the claim is logged.
      expect(uris.filter((u) => u === "test://static-text")).toHaveLength(1);
      expect((await client.readResource({ uri: "test://static-text" })).contents[0]).toMatchObject({ uri: "test://static-text" });
      expect(running.gateway.exposed).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe("protocol pairings through the gateway with a 2026-07-28 upstream (gateway.upstreamProtocol auto)", () => {
  let home: TestHome;
  let running: RunningGateway;

  beforeAll(async () => {
    home = await makeHome({ servers: { full: full() }, gateway: { upstreamProtocol: "auto" } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  it("a 2025 client: the upstream's input_required elicitation becomes elicitation/create to that client", async () => {
    const { client, asked } = await legacyClient(running.url as string, { elicit: { response: "legacy client answers" } });
    try {
      expect(running.gateway.service.clients.status("full").state).not.toBe("error");
      expect(firstText(await client.callTool({ name: "test_elicitation", arguments: { message: "via 2026 upstream" } }))).toBe(
        'User response: action=accept, content={"response":"legacy client answers"}',
      );
      expect(asked).toEqual(["elicit:via 2026 upstream"]);
      expect((await running.gateway.service.clients.connect("full")).protocol.era).toBe("modern");
      expect((await client.readResource({ uri: "test://static-text" })).contents[0]).toMatchObject({ uri: "test://static-text" });
    } finally {
      await client.close();
    }
  });

  it("a 2026 client: resources and prompts of the 2026 upstream", async () => {
    const client = new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain("test://static-binary");
      expect((await client.getPrompt({ name: "test_prompt_with_image" })).messages[0]?.content).toMatchObject({ type: "image", mimeType: "image/png" });
    } finally {
      await client.close();
    }
  });
});
