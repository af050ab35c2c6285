import { describe, expect, it } from "vitest";
import { CRASH_LOOP_WINDOW_MS } from "../../../src/mcp/client-manager/slot.js";
import { childPids, expectRejection, fixture, isAlive, managerFor, readStarts, startsFile, stdioLaunch, waitFor , closeManagersAfterEach } from "./helpers.js";

const track = closeManagersAfterEach();

/** Every fault below runs beside a healthy server that must keep answering. */
function withHealthy(faulty: Parameters<typeof fixture>, limits = {}) {
  return track(managerFor([fixture(...faulty), fixture("ok", [])], { limits }));
}

/** Scheduling slack on a loaded 2-core machine; budgets are asserted as budget + slack, never exact. */
const SLACK_MS = 1_500;

async function elapsed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await run();
  return { value, ms: Date.now() - start };
}

describe("faults end in typed errors within their budget while other servers keep working", () => {
  it("a server that crashes after N calls: the in-flight call fails, the next call restarts it", async () => {
    const starts = startsFile();
    const { manager } = withHealthy(["crashy", ["--crash-after", "2"], { starts }]);
    expect(await manager.callTool("crashy", "echo", { text: "1" })).toBe("1");
    expect(await manager.callTool("crashy", "echo", { text: "2" })).toBe("2");
    const error = await expectRejection(manager.callTool("crashy", "echo", { text: "3" }));
    expect(error).toMatchObject({ name: "McpTransportError", code: "MCP_TRANSPORT_CLOSED" });
    expect(error.message).toContain("crashy.echo");
    await waitFor(() => manager.status("crashy").state === "error");
    expect(manager.status("crashy").lastError?.message).toContain("exit code 1");
    expect(manager.status("crashy").stderr.join("\n")).toContain("crashing on call 3");
    expect(await manager.callTool("ok", "echo", { text: "still here" })).toBe("still here");
    expect(await manager.callTool("crashy", "echo", { text: "back" })).toBe("back");
    expect(readStarts(starts)).toHaveLength(2);
  });

  it("stops reconnecting after maxReconnects failures with a clear error", async () => {
    const starts = startsFile();
    const { manager } = withHealthy(["crashy", ["--crash-after", "0"], { starts }], { maxReconnects: 2 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await expectRejection(manager.callTool("crashy", "echo", { text: "x" }))).toMatchObject({ name: "McpTransportError" });
      await waitFor(() => manager.status("crashy").state === "error");
    }
    const error = await expectRejection(manager.callTool("crashy", "echo", { text: "x" }));
    expect(error).toMatchObject({ name: "McpServerUnavailable", code: "MCP_RECONNECT_LIMIT" });
    expect(error.message).toMatch(/crashy failed 3 times.*limit: 2 reconnects/);
    expect(readStarts(starts)).toHaveLength(3);
    expect(await manager.callTool("ok", "echo", { text: "fine" })).toBe("fine");
  });

  it("a server that crashes after serving for a minute is restarted however often it happens (a long-lived gateway's server is not lost for good)", async () => {
    const starts = startsFile();
    let clock = 1_000_000;
    const { manager } = track(managerFor([fixture("flaky", ["--crash-after", "1"], { starts }), fixture("ok", [])], { limits: { maxReconnects: 1 }, now: () => clock }));
    for (let round = 0; round < 3; round += 1) {
      expect(await manager.callTool("flaky", "echo", { text: `ok ${round}` })).toBe(`ok ${round}`);
      clock += CRASH_LOOP_WINDOW_MS;
      expect(await expectRejection(manager.callTool("flaky", "echo", { text: "crash" }))).toMatchObject({ name: "McpTransportError" });
      await waitFor(() => manager.status("flaky").state === "error");
    }
    expect(await manager.callTool("flaky", "echo", { text: "back" })).toBe("back");
    expect(readStarts(starts)).toHaveLength(4);
  });

  it("the reconnect-limit error does not promise a restart the manager will not make", async () => {
    const { manager } = withHealthy(["crashy", ["--crash-after", "0"]], { maxReconnects: 0 });
    await expectRejection(manager.callTool("crashy", "echo", { text: "x" }));
    await waitFor(() => manager.status("crashy").state === "error");
    const error = await expectRejection(manager.callTool("crashy", "echo", { text: "x" }));
    expect(error).toMatchObject({ code: "MCP_RECONNECT_LIMIT" });
    expect(error.message).not.toContain("The next call restarts");
    expect(error.message).toContain("exit code 1");
  });

  it("a server that never answers initialize is killed at the connect timeout", async () => {
    const starts = startsFile();
    // Long enough that a loaded machine has started node and the fixture has recorded its pid before the kill.
    const connectTimeoutMs = 4_000;
    const { manager } = withHealthy(["hang", ["--mode", "hang-initialize"], { starts, limits: { connectTimeoutMs } }]);
    const before = childPids().length;
    const { value: error, ms } = await elapsed(() => expectRejection(manager.callTool("hang", "echo", { text: "x" })));
    expect(error).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_TIMEOUT" });
    expect(error.message).toContain(`within ${connectTimeoutMs} ms`);
    expect(ms).toBeLessThan(connectTimeoutMs + SLACK_MS);
    const [start] = readStarts(starts);
    expect(isAlive(start!.pid)).toBe(false);
    expect(childPids().length).toBe(before);
    expect(manager.status("hang").state).toBe("error");
    expect(await manager.callTool("ok", "echo", { text: "fine" })).toBe("fine");
  });

  it("a call that hangs times out at callTimeoutMs, is cancelled, and the server keeps serving", async () => {
    const { manager } = withHealthy(["slowpoke", [], { limits: { callTimeoutMs: 300 } }]);
    // Start the server first: the call timeout covers the call, not the spawn.
    await manager.connect("slowpoke");
    const { value: error, ms } = await elapsed(() => expectRejection(manager.callTool("slowpoke", "sleep", { ms: 5_000 })));
    expect(error).toMatchObject({ name: "McpTimeoutError", code: "MCP_CALL_TIMEOUT" });
    expect(error.message).toContain("slowpoke.sleep");
    // What to do next: the setting that gave the 300 ms, by its place in config.json.
    expect(error.message).toContain("raise the server's callTimeoutMs (mcpServers.slowpoke.callTimeoutMs in config.json");
    expect(ms).toBeLessThan(300 + SLACK_MS);
    // The server saw notifications/cancelled: its handler's signal fired.
    await waitFor(() => manager.status("slowpoke").stderr.some((line) => line.includes("sleep cancelled")));
    expect(await manager.callTool("slowpoke", "echo", { text: "after" })).toBe("after");
    expect(manager.status("slowpoke").failures).toBe(0);
  });

  it("hang-call mode: every call times out, the healthy server answers meanwhile", async () => {
    const { manager } = withHealthy(["stuck", ["--mode", "hang-call"], { limits: { callTimeoutMs: 300 } }]);
    // Its rejection is awaited at once: the healthy server may take longer to start than the 300 ms timeout.
    const stuck = expectRejection(manager.callTool("stuck", "echo", { text: "x" }));
    expect(await manager.callTool("ok", "echo", { text: "parallel" })).toBe("parallel");
    expect(await stuck).toMatchObject({ name: "McpTimeoutError", code: "MCP_CALL_TIMEOUT" });
  });

  it("the caller's deadline shortens the call timeout", async () => {
    const { manager } = withHealthy(["slowpoke", []]);
    await manager.connect("slowpoke");
    const { value: error, ms } = await elapsed(() => expectRejection(manager.callTool("slowpoke", "sleep", { ms: 5_000 }, { deadline: Date.now() + 250 })));
    expect(error).toMatchObject({ name: "McpTimeoutError", code: "MCP_CALL_TIMEOUT" });
    expect(error.message).toContain("what was left of the caller's time budget: give the run more (mcpvm run --timeout");
    expect(ms).toBeLessThan(250 + SLACK_MS);
    expect(await expectRejection(manager.callTool("slowpoke", "echo", { text: "x" }, { deadline: Date.now() - 1 }))).toMatchObject({
      name: "McpTimeoutError",
    });
  });

  it("the caller's signal cancels a call with McpCancelledError", async () => {
    const { manager } = withHealthy(["slowpoke", []]);
    const controller = new AbortController();
    const call = manager.callTool("slowpoke", "sleep", { ms: 5_000 }, { signal: controller.signal });
    await waitFor(() => manager.status("slowpoke").inFlight === 1);
    controller.abort();
    expect(await expectRejection(call)).toMatchObject({ name: "McpCancelledError", code: "MCP_CALL_CANCELLED" });
  });

  it("a caller whose deadline passes while the server starts gets McpTimeoutError; the start goes on for others", async () => {
    const { manager } = withHealthy(["a", ["--latency", "0"]]);
    const early = manager.callTool("a", "echo", { text: "x" }, { deadline: Date.now() + 5 });
    const patient = manager.callTool("a", "echo", { text: "y" });
    expect(await expectRejection(early)).toMatchObject({ name: "McpTimeoutError", code: "MCP_CALL_TIMEOUT" });
    expect(await patient).toBe("y");
  });

  it("garbage lines on stdout before the first message are skipped and the server works", async () => {
    const { manager } = withHealthy(["noisy", ["--mode", "garbage-start"]]);
    expect(await manager.callTool("noisy", "echo", { text: "works" })).toBe("works");
  });

  it("a server that writes only garbage fails at the connect timeout naming the cause", async () => {
    // Long enough for the fixture to start and write its garbage on a loaded machine (node alone can take seconds there).
    const { manager } = withHealthy(["garbage", ["--mode", "garbage-only"], { limits: { connectTimeoutMs: 4_000 } }]);
    const error = await expectRejection(manager.callTool("garbage", "echo", { text: "x" }));
    expect(error).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_TIMEOUT" });
    expect(error.message).toMatch(/wrote \d+ lines? on stdout that (is|are) not JSON-RPC, the first: "Welcome to the fixture server!"/);
    expect(await manager.callTool("ok", "echo", { text: "fine" })).toBe("fine");
  });

  it("a server that exits at start fails fast with its exit code and stderr", async () => {
    const { manager } = withHealthy(["quitter", ["--mode", "exit-at-start", "--exit-code", "7"]]);
    const { value: error, ms } = await elapsed(() => expectRejection(manager.callTool("quitter", "echo", { text: "x" })));
    expect(error).toMatchObject({ name: "McpConnectError", code: "MCP_CONNECT_FAILED" });
    expect(error.message).toContain("exited during start-up (exit code 7)");
    expect(error.message).toContain("exiting at start with code 7");
    expect(ms).toBeLessThan(3_000);
  });

  it("a command that does not exist fails with MCP_SPAWN_FAILED", async () => {
    const { manager } = track(managerFor([stdioLaunch("ghost", "mcpvm-no-such-command-xyz", [])]));
    const error = await expectRejection(manager.callTool("ghost", "echo", {}));
    expect(error).toMatchObject({ name: "McpConnectError", code: "MCP_SPAWN_FAILED" });
    expect(error.message).toContain('"mcpvm-no-such-command-xyz"');
    expect(error.message).toContain("ENOENT");
  });

  it("a huge response is truncated with an explicit marker and a warning", async () => {
    const warnings: string[] = [];
    const { manager } = track(
      managerFor([fixture("big", ["--huge-bytes", "300000"], { limits: { maxResponseBytes: 100_000 } })], {
        logger: { warn: (_data, message) => warnings.push(message) },
      }),
    );
    const value = (await manager.callTool("big", "huge", {})) as { truncated: boolean; totalBytes: number; value: string };
    expect(value.truncated).toBe(true);
    expect(value.totalBytes).toBe(300_000);
    expect(value.value).toHaveLength(100_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("big.huge");
  });

  it("slow mode adds latency to every call", async () => {
    const { manager } = withHealthy(["slow", ["--latency", "150"]]);
    await manager.connect("slow");
    const { ms } = await elapsed(() => manager.callTool("slow", "echo", { text: "x" }));
    expect(ms).toBeGreaterThanOrEqual(140);
  });

  it("a tool error (isError) is McpToolError naming server and tool, and the server stays up", async () => {
    const { manager } = withHealthy(["a", []]);
    const error = await expectRejection(manager.callTool("a", "fail", { message: "disk full" }));
    expect(error).toMatchObject({ name: "McpToolError", code: "MCP_TOOL_ERROR" });
    expect(error.message).toBe("MCP tool a.fail failed: fixture failure: disk full");
    expect(manager.status("a").state).toBe("connected");
  });

  it("an unknown tool is refused before any request, listing the tools", async () => {
    const { manager } = withHealthy(["a", []]);
    const error = await expectRejection(manager.callTool("a", "nope", {}));
    expect(error).toMatchObject({ name: "McpToolError", code: "MCP_TOOL_NOT_FOUND" });
    expect(error.message).toContain("echo");
  });
});
