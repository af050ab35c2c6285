import { describe, expect, it } from "vitest";
import { join } from "node:path";
import type { ClientManagerEvent, ServerRequestContext } from "../../../src/mcp/client-manager/index.js";
import { expectRejection, fixture, managerFor, ROOT, stdioLaunch, waitFor, closeManagersAfterEach } from "./helpers.js";

const track = closeManagersAfterEach();
const FULL = join(ROOT, "tests", "fixtures", "servers", "full-server.mjs");
const full = (name = "full", args: readonly string[] = []) => stdioLaunch(name, process.execPath, [FULL, ...args]);

type Of<T extends ClientManagerEvent["type"]> = Extract<ClientManagerEvent, { type: T }>;
const ofType = <T extends ClientManagerEvent["type"]>(events: ClientManagerEvent[], type: T): Of<T>[] => events.filter((e): e is Of<T> => e.type === type);

describe("client→server requests", () => {
  it("lists, reads (text and binary), expands templates, gets prompts and completes", async () => {
    const { manager } = track(managerFor([full()]));
    const connected = await manager.connect("full");
    expect(connected.capabilities?.resources?.subscribe).toBe(true);
    expect(connected.protocol.era).toBe("legacy");

    const { resources } = await manager.request("full", "resources/list", undefined);
    expect(resources.map((r) => r.uri)).toContain("test://static-text");
    const text = await manager.request("full", "resources/read", { uri: "test://static-text" });
    expect(text.contents[0]).toMatchObject({ uri: "test://static-text", text: "This is the content of the static text resource." });
    const binary = await manager.request("full", "resources/read", { uri: "test://static-binary" });
    expect(binary.contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.stringMatching(/^iVBOR/) });

    const { resourceTemplates } = await manager.request("full", "resources/templates/list", undefined);
    expect(resourceTemplates[0]?.uriTemplate).toBe("test://template/{id}/data");
    const templated = await manager.request("full", "resources/read", { uri: "test://template/42/data" });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toMatchObject({ id: "42", templateTest: true });

    const { prompts } = await manager.request("full", "prompts/list", undefined);
    expect(prompts.find((p) => p.name === "test_prompt_with_arguments")?.arguments?.map((a) => a.name)).toEqual(["arg1", "arg2"]);
    const prompt = await manager.request("full", "prompts/get", { name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });

    const completion = await manager.request("full", "completion/complete", {
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "al" },
    });
    expect(completion.completion.values).toEqual(["alpha", "alpine"]);
  });

  it("classifies rejections with the JSON-RPC code, and refuses what the server did not declare", async () => {
    const { manager } = track(managerFor([full(), fixture("plain", [])]));
    const unknown = await expectRejection(manager.request("full", "resources/read", { uri: "test://nope" }));
    expect(unknown).toMatchObject({ name: "McpRequestError", code: "MCP_REQUEST_REJECTED" });
    expect(unknown.message).toContain("test://nope");
    const missingArgs = (await manager.request("full", "prompts/get", { name: "test_prompt_with_arguments", arguments: { arg1: "a" } }).catch((e: unknown) => e)) as {
      code: string;
      data: { rpcCode: number };
    };
    expect(missingArgs).toMatchObject({ code: "MCP_REQUEST_REJECTED", data: { rpcCode: -32602 } });

    // The plain fixture declares tools only: list verbs are empty, other requests are refused before sending.
    expect(await manager.request("plain", "resources/list", undefined)).toEqual({ resources: [] });
    expect(await manager.request("plain", "prompts/list", undefined)).toEqual({ prompts: [] });
    const unsupported = await expectRejection(manager.request("plain", "resources/read", { uri: "test://static-text" }));
    expect(unsupported).toMatchObject({ name: "McpRequestError", code: "MCP_REQUEST_UNSUPPORTED" });
  });

  it("times out and cancels like a tool call", async () => {
    const { manager } = track(managerFor([full("full", [])], { limits: { defaultCallTimeoutMs: 30_000 } }));
    const controller = new AbortController();
    const pending = manager.callToolRaw("full", "slow_echo", { text: "x", ms: 20_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await expectRejection(pending)).toMatchObject({ code: "MCP_CALL_CANCELLED" });
    const past = await expectRejection(manager.request("full", "resources/list", undefined, { deadline: Date.now() - 1 }));
    expect(past).toMatchObject({ code: "MCP_CALL_TIMEOUT" });
  });
});

describe("notifications from the server", () => {
  it("emits log messages after logging/setLevel, resource updates for subscriptions, and list_changed", async () => {
    const { manager, events } = track(managerFor([full()]));
    await manager.request("full", "logging/setLevel", { level: "debug" });
    await waitFor(() => ofType(events, "log").some((e) => e.data === "Log level set to: debug"));
    expect(ofType(events, "log")[0]).toMatchObject({ server: "full", level: "info", logger: "mcpvm-full-fixture" });

    await manager.request("full", "resources/subscribe", { uri: "test://watched-resource" });
    await manager.callToolRaw("full", "touch_watched", {});
    await waitFor(() => ofType(events, "resourceUpdated").length === 1);
    expect(ofType(events, "resourceUpdated")[0]).toEqual({ type: "resourceUpdated", server: "full", uri: "test://watched-resource" });
    await manager.request("full", "resources/unsubscribe", { uri: "test://watched-resource" });
    await manager.callToolRaw("full", "touch_watched", {});
    await manager.callToolRaw("full", "change_lists", {});
    await waitFor(() => ofType(events, "listChanged").length === 2);
    expect(ofType(events, "resourceUpdated")).toHaveLength(1);
    expect(ofType(events, "listChanged").map((e) => e.list).sort()).toEqual(["prompts", "resources"]);
  });

  it("reports progress of a tool call to onProgress", async () => {
    const { manager } = track(managerFor([full()]));
    const seen: number[] = [];
    const result = await manager.callToolRaw("full", "test_tool_with_progress", {}, {}, { onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([0, 50, 100]);
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect((result.content[0] as { text: string }).text).not.toBe("no progress token");
  });

  it("caps a flood of log and progress notifications and counts what it dropped", async () => {
    const { manager, events } = track(managerFor([full()], { limits: { maxNotificationsPerSecond: 20 } }));
    let progress = 0;
    await manager.callToolRaw("full", "flood", { kind: "progress", count: 500 }, {}, { onProgress: () => (progress += 1) });
    await manager.callToolRaw("full", "flood", { kind: "log", count: 500 }, {});
    await waitFor(() => ofType(events, "notificationsDropped").some((e) => e.kind === "progress"));
    expect(progress).toBeLessThanOrEqual(40);
    expect(progress).toBeGreaterThan(0);
    const dropped = ofType(events, "notificationsDropped").find((e) => e.kind === "progress");
    expect((dropped?.count ?? 0) + progress).toBeLessThanOrEqual(500);
    expect(ofType(events, "log").length).toBeLessThanOrEqual(40);
    // The server and the manager carry on.
    expect(await manager.callTool("full", "test_simple_text", {})).toBe("This is a simple text response for testing.");
  });
});

describe("server→client requests", () => {
  it("declares no elicitation or sampling without hooks, so the server's request fails", async () => {
    const { manager } = track(managerFor([full()]));
    const refused = await expectRejection(manager.callToolRaw("full", "test_elicitation", { message: "hi" }));
    expect(refused.code).toBe("MCP_TOOL_REJECTED");
  });

  it("answers elicitation and sampling through the hooks, naming the caller whose call triggered them", async () => {
    const seen: { kind: string; ctx: ServerRequestContext; message: string }[] = [];
    const { manager } = track(
      managerFor([full()], {
        serverRequests: {
          elicit: async (params, ctx) => {
            seen.push({ kind: "elicit", ctx, message: params.message });
            return { action: "accept", content: { response: "yes" } };
          },
          sample: async (params, ctx) => {
            const first = params.messages[0]?.content;
            seen.push({ kind: "sample", ctx, message: first !== undefined && "text" in first ? String(first.text) : "" });
            return { role: "assistant", content: { type: "text", text: "sampled!" }, model: "fake" };
          },
        },
      }),
    );
    const elicited = await manager.callTool("full", "test_elicitation", { message: "Your name?" }, { origin: "session-A" });
    expect(elicited).toBe('User response: action=accept, content={"response":"yes"}');
    const sampled = await manager.callTool("full", "test_sampling", { prompt: "Say hi" }, { origin: "session-B" });
    expect(sampled).toBe("LLM response: sampled!");
    expect(seen.map((s) => [s.kind, s.message, s.ctx.origin.origin, s.ctx.server])).toEqual([
      ["elicit", "Your name?", "session-A", "full"],
      ["sample", "Say hi", "session-B", "full"],
    ]);
    expect(seen[0]?.ctx.origin.how).not.toBe("unknown");
  });
});

describe("protocol generations", () => {
  it("speaks 2026-07-28 to an upstream that offers it (protocol auto); elicitation arrives as an input_required round, answered by the hook", async () => {
    const seen: ServerRequestContext[] = [];
    const { manager } = track(
      managerFor([full()], {
        protocol: "auto",
        serverRequests: {
          elicit: async (_params, ctx) => {
            seen.push(ctx);
            return { action: "accept", content: { response: "modern" } };
          },
        },
      }),
    );
    expect((await manager.connect("full")).protocol).toEqual({ era: "modern", version: "2026-07-28" });
    expect((await manager.request("full", "resources/read", { uri: "test://static-text" })).contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
    const prompt = await manager.request("full", "prompts/get", { name: "test_simple_prompt" });
    expect(prompt.messages).toHaveLength(1);
    expect(await manager.callTool("full", "test_elicitation", { message: "2026?" }, { origin: "run-7" })).toBe('User response: action=accept, content={"response":"modern"}');
    // The SDK runs the round from its response handler, outside the call's async context: the
    // origin is the only caller with a call in flight on that server.
    expect(seen.map((c) => [c.era, c.origin.origin])).toEqual([["modern", "run-7"]]);
    expect(seen[0]?.origin.how).not.toBe("unknown");
  });

  it("stays on 2025 with the default (legacy) negotiation", async () => {
    const { manager } = track(managerFor([full()]));
    expect((await manager.connect("full")).protocol.era).toBe("legacy");
  });
});
