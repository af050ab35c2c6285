import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, makeHome, type TestHome } from "./helpers.js";

const MODERN = "2026-07-28";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bad-params", version: "1" } };

type RpcError = { code: number; message: string };

/**
 * Requests whose params break the spec's schema (a missing or mistyped field) are the client's
 * mistake: JSON-RPC -32602 Invalid params naming the field, as for tools/call, never -32603
 * "Internal error" with the validator's issue list as a JSON dump (what the SDK's server answers
 * for every other method). A 2025 session and a 2026-07-28 request alike, over real HTTP.
 */
describe("malformed params: -32602 naming the field, not an internal error", () => {
  let home: TestHome;
  let running: RunningGateway;
  let url: URL;
  let session: Record<string, string>;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "silent", pretty: false, expose: "everything" });
    url = new URL(running.url as string);
    const init = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bad-params", version: "1" } } }) });
    session = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
    await init.text();
    await (await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  /** The JSON-RPC error of one request (a JSON body or a one-message SSE stream). */
  async function errorOf(headers: Record<string, string>, method: string, params: Record<string, unknown>): Promise<RpcError | undefined> {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }) });
    const text = await response.text();
    const json = text.startsWith("{") ? text : (text.split("\n").find((line) => line.startsWith("data: {")) ?? "").slice(6);
    return (JSON.parse(json) as { error?: RpcError }).error;
  }

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["resources/read", {}, "params.uri"],
    ["resources/read", { uri: 5 }, "params.uri"],
    ["prompts/get", { name: "args-prompt", arguments: { city: 5 } }, "params.arguments.city"],
    ["tools/list", { cursor: 5 }, "params.cursor"],
    ["completion/complete", { ref: { type: "ref/prompt" }, argument: { name: "x", value: "" } }, "params.ref"],
  ];

  it("in a 2025 session", async () => {
    for (const [method, params, field] of [...cases, ["logging/setLevel", { level: "loud" }, "params.level"] as [string, Record<string, unknown>, string]]) {
      const error = await errorOf(session, method, params);
      expect(error?.code, `${method} ${JSON.stringify(params)}: ${error?.message}`).toBe(-32602);
      expect(error?.message).toMatch(new RegExp(`^Invalid params for ${method}: .*${field.replaceAll(".", "\\.")}`));
      expect(error?.message).not.toContain('"code"');
    }
  });

  it("in a 2026-07-28 request", async () => {
    const modern = { ...HEADERS, "mcp-protocol-version": MODERN };
    for (const [method, params, field] of cases) {
      // The standard headers name what the body says (else the SDK refuses them first, -32020).
      const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
      const error = await errorOf({ ...modern, "mcp-method": method, ...name }, method, { ...params, _meta: ENVELOPE });
      expect(error?.code, `${method} ${JSON.stringify(params)}: ${error?.message}`).toBe(-32602);
      expect(error?.message).toMatch(new RegExp(`^Invalid params for ${method}: .*${field.replaceAll(".", "\\.")}`));
    }
  });
});
