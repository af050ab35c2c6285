import { describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { McpvmError } from "../../../src/util/errors.js";
import type { ClientManagerEvent } from "../../../src/mcp/client-manager/index.js";
import { EVERYTHING, expectRejection, fixture, managerFor, readStarts, startsFile, stdioLaunch, waitFor , closeManagersAfterEach } from "./helpers.js";

const track = closeManagersAfterEach();

/** The names the fixture serves in awkward-names mode. */
const AWKWARD_NAMES = ["delete", "__proto__", "my-tool", "my.tool", "my_tool", "123start", "ünïcödé", "日本語"];

class ApprovalDenied extends McpvmError<"APPROVAL_DENIED"> {}

describe("tool lists", () => {
  it("follows nextCursor through every page of tools/list", async () => {
    const { manager } = track(managerFor([fixture("paged", ["--page-size", "4", "--extra-tools", "25"])]));
    const tools = await manager.listTools("paged");
    expect(tools).toHaveLength(10 + 25);
    expect(tools.at(-1)?.name).toBe("tool_025");
    expect(await manager.callTool("paged", "tool_025", {})).toBe("tool_025");
  });

  it("fails the connect when pagination never ends within maxToolPages", async () => {
    const { manager } = track(managerFor([fixture("paged", ["--page-size", "1", "--extra-tools", "20"])], { limits: { maxToolPages: 5 } }));
    const error = await expectRejection(manager.listTools("paged"));
    expect(error).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_FAILED" });
  });

  it("routes awkward tool names unchanged", async () => {
    const { manager } = track(managerFor([fixture("odd", ["--mode", "awkward-names"])]));
    const names = (await manager.listTools("odd")).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(AWKWARD_NAMES));
    for (const name of AWKWARD_NAMES) expect(await manager.callTool("odd", name, {})).toBe(name);
  });

  it("re-lists on tools/list_changed, re-runs onToolsListed and emits a tools event", async () => {
    const listed: string[][] = [];
    const { manager, events } = track(
      managerFor([fixture("shifty", ["--mode", "list-changed"])], {
        hooks: {
          onToolsListed: async (_name, tools) => {
            listed.push(tools.map((t) => t.name));
            return tools;
          },
        },
      }),
    );
    expect(await manager.callTool("shifty", "echo", { text: "trigger" })).toBe("trigger");
    await waitFor(() => events.some((e) => e.type === "tools" && e.reason === "list_changed"));
    const changed = events.find((e): e is Extract<ClientManagerEvent, { type: "tools" }> => e.type === "tools" && e.reason === "list_changed");
    expect(changed?.tools.map((t) => t.name)).toContain("added_tool");
    expect(changed?.tools.find((t) => t.name === "echo")?.description).toBe("Echo the text back (changed).");
    expect(listed).toHaveLength(2);
    expect(await manager.callTool("shifty", "added_tool", {})).toBe("added_tool");
  });
});

describe("trust-layer hooks", () => {
  it("runs beforeConnect before the process is spawned, on every connect", async () => {
    const starts = startsFile();
    const seen: number[] = [];
    const { manager } = track(
      managerFor([fixture("a", [], { starts })], {
        hooks: {
          beforeConnect: async (launch) => {
            expect(launch.name).toBe("a");
            seen.push(readStarts(starts).length);
          },
        },
      }),
    );
    await manager.callTool("a", "echo", { text: "1" });
    await manager.close("a");
    await manager.callTool("a", "echo", { text: "2" });
    expect(seen).toEqual([0, 1]);
  });

  it("a refusing beforeConnect starts nothing and its own error reaches the caller", async () => {
    const starts = startsFile();
    const { manager } = track(
      managerFor([fixture("a", [], { starts }), fixture("b", [], { starts })], {
        hooks: {
          beforeConnect: async (launch) => {
            if (launch.name === "a") throw new ApprovalDenied("APPROVAL_DENIED", "server a is not approved");
          },
        },
      }),
    );
    expect(await expectRejection(manager.callTool("a", "echo", { text: "x" }))).toMatchObject({ name: "ApprovalDenied", code: "APPROVAL_DENIED" });
    expect(readStarts(starts)).toHaveLength(0);
    expect(manager.status("a").state).toBe("error");
    expect(manager.status("a").failures).toBe(0);
    // A plain Error from the hook becomes McpConnectError MCP_CONNECT_REFUSED.
    const plain = track(managerFor([fixture("c", [], { starts })], { hooks: { beforeConnect: async () => Promise.reject(new Error("no")) } }));
    expect(await expectRejection(plain.manager.connect("c"))).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_REFUSED" });
    expect(readStarts(starts)).toHaveLength(0);
    expect(await manager.callTool("b", "echo", { text: "y" })).toBe("y");
  });

  it("exposes only what onToolsListed returns and refuses calls to filtered tools", async () => {
    const { manager } = track(
      managerFor([fixture("a", [])], {
        hooks: {
          onToolsListed: async (name, tools: readonly Tool[], identity) => {
            expect(name).toBe("a");
            expect(identity.serverInfo?.name).toBe("mcpvm-fixture");
            return tools.filter((t) => t.name !== "env");
          },
        },
      }),
    );
    const names = (await manager.listTools("a")).map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("env");
    expect(await expectRejection(manager.callTool("a", "env", {}))).toMatchObject({ name: "McpToolError", code: "MCP_TOOL_NOT_FOUND" });
  });

  it("redacts launch secrets and applies the redact hook to stderr lines and error messages", async () => {
    const secret = "sk-test-very-secret-value";
    const { manager, events } = track(
      managerFor([fixture("a", [], { env: { API_KEY: secret }, secrets: [secret] })], {
        hooks: { redact: (text) => text.replaceAll("hunter2", "[hook]") },
      }),
    );
    await manager.callTool("a", "stderr", { text: `key=${secret} password=hunter2` });
    await waitFor(() => events.some((e) => e.type === "stderr" && e.line.startsWith("key=")));
    const line = manager.status("a").stderr.find((l) => l.startsWith("key="));
    expect(line).toBe("key=**** password=[hook]");
    const error = await expectRejection(manager.callTool("a", "fail", { message: `bad ${secret} hunter2` }));
    expect(error.message).toBe("MCP tool a.fail failed: fixture failure: bad **** [hook]");
  });
});

describe("child environment", () => {
  it("gives a stdio server only the allowlisted host variables plus its configured env", async () => {
    process.env.MCPVM_TEST_HOST_SECRET = "must-not-leak";
    try {
      const { manager } = track(managerFor([fixture("a", [], { env: { CONFIGURED: "yes" } })]));
      const result = (await manager.callTool("a", "env", { name: "CONFIGURED" })) as { value: string; keys: string[] };
      expect(result.value).toBe("yes");
      expect(result.keys).not.toContain("MCPVM_TEST_HOST_SECRET");
      expect(result.keys.every((k) => ["PATH", "HOME", "USER", "LANG", "TMPDIR", "SystemRoot", "CONFIGURED"].includes(k))).toBe(true);
    } finally {
      delete process.env.MCPVM_TEST_HOST_SECRET;
    }
  });

  it("uses an injected childEnv builder", async () => {
    const { manager } = track(managerFor([fixture("a", [])], { childEnv: (launch) => ({ ...launch.env, PATH: process.env.PATH ?? "", ONLY: "this" }) }));
    const result = (await manager.callTool("a", "env", { name: "ONLY" })) as { value: string; keys: string[] };
    expect(result.value).toBe("this");
    expect(result.keys.sort()).toEqual(["ONLY", "PATH"]);
  });
});

describe("results and diagnostics through the manager", () => {
  it("converts every content kind of a real response", async () => {
    const { manager } = track(managerFor([fixture("a", [])]));
    const value = (await manager.callTool("a", "mixed", {})) as unknown[];
    expect(value.slice(0, 2)).toEqual(["plain", { a: 1 }]);
    expect(value[2]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(value[3]).toMatchObject({ type: "audio", mimeType: "audio/wav" });
    expect(value[4]).toEqual({ type: "resource_link", uri: "file:///tmp/a.txt", name: "a.txt", mimeType: "text/plain" });
    expect(value[5]).toEqual({ type: "resource", uri: "mem://note", mimeType: "text/plain", text: "note" });
    expect((value[6] as { data: Uint8Array }).data).toBeInstanceOf(Uint8Array);
    const raw = await manager.callToolRaw("a", "echo_json", { value: 1 });
    expect(raw.structuredContent).toEqual({ echo: 1 });
  });

  it("a tool that runs only as an MCP task (taskSupport: required) is refused before anything is sent, saying why", async () => {
    const { manager, events } = track(managerFor([stdioLaunch("everything", process.execPath, [EVERYTHING, "stdio"])]));
    const refused = await expectRejection(manager.callTool("everything", "simulate-research-query", { topic: "cats" }));
    expect(refused).toMatchObject({ name: "McpToolError", code: "MCP_TOOL_REJECTED" });
    expect(refused.message).toMatch(/^MCP tool everything\.simulate-research-query runs only as an MCP task \(its execution\.taskSupport is "required"\), which mcpvm does not run: nothing was sent/);
    expect(events.filter((e) => e.type === "call")).toEqual([]);
  });

  it("keeps only the last stderrLines lines of a chatty server", async () => {
    const { manager } = track(managerFor([fixture("chatty", ["--mode", "stderr-noise"])], { limits: { stderrLines: 50 } }));
    await manager.connect("chatty");
    await waitFor(() => manager.status("chatty").stderr.at(-1) === "fixture: noise line 500");
    const stderr = manager.status("chatty").stderr;
    expect(stderr).toHaveLength(51);
    expect(stderr[0]).toBe("[451 earlier lines dropped]");
  });
});
