import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../../src/gateway/index.js";
import { DIFFERENTIAL_CASES } from "./fast-lane-support.js";
import { stdioPair, type LineClient, type Message, type StdioPair } from "./stdio-lane-support.js";

/**
 * The stdio face's fast lane against the SDK path: the same raw lines to a gateway with the lane
 * and one without it (same home, same upstream fixtures) must get the same JSON-RPC answers, and
 * the lane must have answered the plain calls itself (its counter moves), so the comparison is
 * never between two SDK paths. Everything the lane must leave to the SDK is checked to reach it.
 */
describe("stdio fast lane vs SDK path", () => {
  let pair: StdioPair;
  let fast: { client: LineClient; gateway: RunningGateway };
  let slow: { client: LineClient; gateway: RunningGateway };
  let nextId = 0;

  beforeAll(async () => {
    pair = await stdioPair();
    fast = await pair.connect(true);
    slow = await pair.connect(false);
    await fast.client.initialize();
    await slow.client.initialize();
  }, 60_000);
  afterAll(async () => {
    await pair?.close();
  });

  const call = (name: string, args: unknown, meta?: Record<string, unknown>): Message => ({
    jsonrpc: "2.0",
    id: `c${(nextId += 1)}`,
    method: "tools/call",
    params: { name, ...(args === undefined ? {} : { arguments: args }), ...(meta === undefined ? {} : { _meta: meta }) },
  });

  async function both(message: Message): Promise<[Message, Message]> {
    fast.client.send(message);
    slow.client.send(message);
    return [await fast.client.answer(message.id as string), await slow.client.answer(message.id as string)];
  }


  it.each(DIFFERENTIAL_CASES)("2025-11-25: %s", async (_what, name, args) => {
    const before = fast.gateway.stdioFastLaneCalls() ?? 0;
    const [viaLane, viaSdk] = await both(call(name, args));
    expect(viaLane).toEqual(viaSdk);
    expect(fast.gateway.stdioFastLaneCalls()).toBe(before + 1);
    expect(slow.gateway.stdioFastLaneCalls()).toBeUndefined();
  });

  it("trace context in _meta stays on the lane; a progress token goes to the SDK", async () => {
    const before = fast.gateway.stdioFastLaneCalls() ?? 0;
    const [traced, tracedSdk] = await both(call("fixture_echo", { text: "t" }, { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }));
    expect(traced).toEqual(tracedSdk);
    expect(fast.gateway.stdioFastLaneCalls()).toBe(before + 1);
    const [progress, progressSdk] = await both(call("fixture_echo", { text: "p" }, { progressToken: "tok" }));
    expect(progress).toEqual(progressSdk);
    expect(fast.gateway.stdioFastLaneCalls()).toBe(before + 1);
  });

  it("the built-in tools and other methods stay on the SDK path", async () => {
    const before = fast.gateway.stdioFastLaneCalls() ?? 0;
    const [listed, listedSdk] = await both({ jsonrpc: "2.0", id: "list-1", method: "tools/list", params: {} });
    expect(listed).toEqual(listedSdk);
    const [builtin, builtinSdk] = await both(call("list_mcp_tools", {}));
    expect(builtin).toEqual(builtinSdk);
    expect(fast.gateway.stdioFastLaneCalls()).toBe(before);
  });

  it("a cancelled call is not answered on either path, and the connection goes on", async () => {
    const sleep = call("fixture_sleep", { ms: 10_000 });
    fast.client.send(sleep);
    slow.client.send(sleep);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sleep.id, reason: "test" } };
    fast.client.send(cancel);
    slow.client.send(cancel);
    const [after, afterSdk] = await both(call("fixture_echo", { text: "after" }));
    expect(after).toEqual(afterSdk);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fast.client.received.some((m) => m.id === sleep.id)).toBe(false);
    expect(slow.client.received.some((m) => m.id === sleep.id)).toBe(false);
  });
});

describe("stdio fast lane: clients it must leave to the SDK", () => {
  let pair: StdioPair;

  beforeAll(async () => {
    pair = await stdioPair();
  }, 60_000);
  afterAll(async () => {
    await pair?.close();
  });

  it("a client that declared elicitation: its calls go through the SDK (an upstream may ask it)", async () => {
    const { client, gateway } = await pair.connect(true);
    await client.initialize({ elicitation: {} });
    const answer = await client.request("e1", "tools/call", { name: "fixture_echo", arguments: { text: "x" } });
    expect(answer.result).toMatchObject({ content: [{ type: "text", text: "x" }] });
    expect(gateway.stdioFastLaneCalls()).toBe(0);
  }, 30_000);

  it("a client that set a log level gets the upstream's log messages of its call (SDK path)", async () => {
    const { client, gateway } = await pair.connect(true);
    await client.initialize();
    await client.request("lvl", "logging/setLevel", { level: "debug" });
    const answer = await client.request("l1", "tools/call", { name: "full_test_tool_with_logging", arguments: {} });
    expect(answer.result).toMatchObject({ content: [{ type: "text" }] });
    expect(client.received.some((m) => m.method === "notifications/message")).toBe(true);
    expect(gateway.stdioFastLaneCalls()).toBe(0);
  }, 30_000);

  it("a 2025-03-26 client (an encoding the lane does not write) is served by the SDK", async () => {
    const { client, gateway } = await pair.connect(true);
    const init = await client.initialize({}, "2025-03-26");
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe("2025-03-26");
    const answer = await client.request("o1", "tools/call", { name: "fixture_echo", arguments: { text: "old" } });
    expect(answer.result).toMatchObject({ content: [{ type: "text", text: "old" }] });
    expect(gateway.stdioFastLaneCalls()).toBe(0);
  }, 30_000);

  it("a call sent before initialize is not answered by the lane", async () => {
    const { client, gateway } = await pair.connect(true);
    await client.initialize();
    expect(gateway.stdioFastLaneCalls()).toBe(0);
    const early = await pair.connect(true);
    early.client.send({ jsonrpc: "2.0", id: "early", method: "tools/call", params: { name: "fixture_echo", arguments: { text: "e" } } });
    await early.client.answer("early").catch(() => undefined);
    expect(early.gateway.stdioFastLaneCalls()).toBe(0);
  }, 30_000);

  it("the client leaving mid-call ends the connection without an answer or an error", async () => {
    const { client, gateway } = await pair.connect(true);
    await client.initialize();
    client.send({ jsonrpc: "2.0", id: "s1", method: "tools/call", params: { name: "fixture_sleep", arguments: { ms: 10_000 } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gateway.stdioFastLaneCalls()).toBe(1);
    client.stdin.end();
    await gateway.done;
    expect(client.received.some((m) => m.id === "s1")).toBe(false);
  }, 30_000);
});
