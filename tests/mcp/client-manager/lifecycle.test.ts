import { describe, expect, it } from "vitest";
import { FIXTURE, childPids, expectRejection, fixture, isAlive, managerFor, readStarts, startsFile, stdioLaunch, waitFor , closeManagersAfterEach } from "./helpers.js";

const track = closeManagersAfterEach();

describe("ClientManager lifecycle", () => {
  it("starts nothing at construction and starts a server on its first call", async () => {
    const starts = startsFile();
    const before = childPids().length;
    const { manager } = track(managerFor([fixture("a", [], { starts }), fixture("b", [], { starts })]));
    expect(manager.status("a").state).toBe("idle");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readStarts(starts)).toHaveLength(0);
    expect(childPids().length).toBe(before);

    expect(await manager.callTool("a", "echo", { text: "hi" })).toBe("hi");
    expect(readStarts(starts)).toHaveLength(1);
    expect(childPids().length).toBe(before + 1);
    expect(manager.status("a").state).toBe("connected");
    expect(manager.status("b").state).toBe("idle");
  });

  it("shares one connect between concurrent first calls", async () => {
    const starts = startsFile();
    const { manager, events } = track(managerFor([fixture("a", [], { starts })]));
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => manager.callTool("a", "echo", { text: `n${n}` })));
    expect(results).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    expect(readStarts(starts)).toHaveLength(1);
    const states = events.filter((e) => e.type === "state" && e.server === "a").map((e) => (e.type === "state" ? e.state : ""));
    expect(states).toEqual(["connecting", "connected"]);
  });

  it("reports the exposed tools when a connection is made", async () => {
    const { manager, events } = track(managerFor([fixture("a", [])]));
    const { tools, identity } = await manager.connect("a");
    expect(tools.map((t) => t.name)).toContain("echo");
    expect(identity.serverInfo?.name).toBe("mcpvm-fixture");
    expect(identity.instructions).toBe("Fixture server for mcpvm tests.");
    expect(events.some((e) => e.type === "tools" && e.reason === "connect" && e.tools.length === tools.length)).toBe(true);
  });

  it("keeps at most maxLiveConnections alive, closing the least recently used idle one", async () => {
    const starts = startsFile();
    const { manager } = track(
      managerFor([fixture("a", [], { starts }), fixture("b", [], { starts }), fixture("c", [], { starts })], { limits: { maxLiveConnections: 2 } }),
    );
    await manager.callTool("a", "echo", { text: "1" });
    await manager.callTool("b", "echo", { text: "2" });
    await manager.callTool("a", "echo", { text: "3" }); // b is now the least recently used
    const pidB = manager.status("b").pid as number;
    await manager.callTool("c", "echo", { text: "4" });
    expect(manager.status("a").state).toBe("connected");
    expect(manager.status("b").state).toBe("idle");
    expect(manager.status("c").state).toBe("connected");
    expect(isAlive(pidB)).toBe(false);
    // b comes back on its next use, evicting a (now the least recently used).
    expect(await manager.callTool("b", "echo", { text: "5" })).toBe("5");
    expect(manager.status("a").state).toBe("idle");
    expect(readStarts(starts)).toHaveLength(4);
  });

  it("refuses a new server with a clear error when every live server has a call in flight", async () => {
    const { manager } = track(managerFor([fixture("a", []), fixture("b", [])], { limits: { maxLiveConnections: 1 } }));
    const slow = manager.callTool("a", "sleep", { ms: 400 });
    await waitFor(() => manager.status("a").inFlight === 1);
    const error = await expectRejection(manager.callTool("b", "echo", { text: "x" }));
    expect(error).toMatchObject({ name: "McpServerUnavailable", code: "MCP_CAPACITY" });
    expect(error.message).toContain("maxLiveConnections");
    expect(await slow).toBe("slept 400");
    expect(await manager.callTool("b", "echo", { text: "now" })).toBe("now");
  });

  it("starts more servers at once than maxLiveConnections: the ones over the cap wait for a start to finish, then take an idle place", async () => {
    // What a gateway's first listing, /readyz or a script using every server does: all servers start together.
    const { manager } = track(managerFor(["a", "b", "c"].map((name) => fixture(name, [])), { limits: { maxLiveConnections: 2 } }));
    const started = await Promise.allSettled(["a", "b", "c"].map((name) => manager.connect(name)));
    expect(started.map((s) => (s.status === "fulfilled" ? "ok" : (s.reason as { code?: string }).code))).toEqual(["ok", "ok", "ok"]);
    expect(["a", "b", "c"].filter((name) => manager.status(name).state === "connected")).toHaveLength(2);
    for (const name of ["a", "b", "c"]) expect(await manager.callTool(name, "echo", { text: name })).toBe(name);
  });

  it("closes a server after idleTimeoutMs without calls and restarts it on the next call", async () => {
    const starts = startsFile();
    const { manager } = track(managerFor([fixture("a", [], { starts })], { limits: { idleTimeoutMs: 150 } }));
    await manager.callTool("a", "echo", { text: "x" });
    const pid = manager.status("a").pid as number;
    await waitFor(() => manager.status("a").state === "idle", 3_000);
    await waitFor(() => !isAlive(pid), 3_000);
    expect(await manager.callTool("a", "echo", { text: "again" })).toBe("again");
    expect(readStarts(starts)).toHaveLength(2);
  });

  it("does not close a server with a call in flight when the idle time passes", async () => {
    const { manager } = track(managerFor([fixture("a", [])], { limits: { idleTimeoutMs: 100 } }));
    expect(await manager.callTool("a", "sleep", { ms: 350 })).toBe("slept 350");
    expect(manager.status("a").state).toBe("connected");
  });

  it("close(name) stops one server; its next use starts it again", async () => {
    const starts = startsFile();
    const { manager } = track(managerFor([fixture("a", [], { starts })]));
    await manager.callTool("a", "echo", { text: "x" });
    const pid = manager.status("a").pid as number;
    await manager.close("a");
    expect(manager.status("a").state).toBe("closed");
    expect(isAlive(pid)).toBe(false);
    expect(await manager.callTool("a", "echo", { text: "y" })).toBe("y");
    expect(readStarts(starts)).toHaveLength(2);
  });

  it("closeAll leaves no child process and refuses further work", async () => {
    const before = childPids().length;
    const { manager } = managerFor([fixture("a", []), fixture("b", []), fixture("c", ["--mode", "hang-call"])], {
      limits: { killGraceMs: 200 },
    });
    await manager.callTool("a", "echo", { text: "x" });
    await manager.callTool("b", "echo", { text: "x" });
    // Its rejection is caught at once: it fails while closeAll is still being awaited.
    const hung = expectRejection(manager.callTool("c", "echo", { text: "x" }));
    await waitFor(() => manager.status("c").inFlight === 1);
    expect(childPids().length).toBe(before + 3);
    const pids = ["a", "b", "c"].map((n) => manager.status(n).pid as number);
    await manager.closeAll();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(childPids().length).toBe(before);
    expect(await hung).toMatchObject({ name: "McpTransportError", code: "MCP_TRANSPORT_CLOSED" });
    expect(await expectRejection(manager.callTool("a", "echo", { text: "x" }))).toMatchObject({
      name: "McpServerUnavailable",
      code: "MCP_MANAGER_CLOSED",
    });
    expect(manager.status("a").state).toBe("closed");
  });

  it("kills the whole process group: a server started through a wrapper leaves no grandchild", async () => {
    const starts = startsFile();
    // `; true` keeps sh from exec-ing node, so the fixture is sh's child, our grandchild.
    const wrapped = stdioLaunch("wrapped", "/bin/sh", ["-c", `"${process.execPath}" "${FIXTURE}" --mode hang-initialize; true`], {
      env: { MCPVM_FIXTURE_STARTS: starts },
      // Long enough for sh and then node to start (and record the grandchild) on a loaded machine.
      limits: { connectTimeoutMs: 4_000 },
    });
    const { manager } = track(managerFor([wrapped]));
    expect(await expectRejection(manager.connect("wrapped"))).toMatchObject({ code: "MCP_CONNECT_TIMEOUT" });
    const [start] = readStarts(starts);
    expect(start).toBeDefined();
    await waitFor(() => !isAlive(start!.pid), 5_000);
  });

  it("setServer replaces a resolver for the next connect; removeServer stops and forgets a server", async () => {
    const starts = startsFile();
    const { manager } = track(managerFor([fixture("a", [], { starts })]));
    await manager.callTool("a", "echo", { text: "x" });
    manager.setServer("a", async () => fixture("a", ["--mode", "awkward-names"], { starts }));
    expect((await manager.listTools("a")).map((t) => t.name)).not.toContain("my-tool");
    await manager.close("a");
    expect((await manager.listTools("a")).map((t) => t.name)).toContain("my-tool");
    const pid = manager.status("a").pid as number;
    await manager.removeServer("a");
    expect(isAlive(pid)).toBe(false);
    expect(manager.serverNames()).toEqual([]);
    expect(await expectRejection(manager.connect("a"))).toMatchObject({ code: "MCP_UNKNOWN_SERVER" });
  });

  it("a throwing listener does not break the manager", async () => {
    const { manager } = track(managerFor([fixture("a", [])]));
    manager.subscribe(() => {
      throw new Error("broken UI");
    });
    expect(await manager.callTool("a", "echo", { text: "fine" })).toBe("fine");
  });

  it("names the configured servers when an unknown one is asked for", async () => {
    const { manager } = track(managerFor([fixture("a", [])]));
    const error = await expectRejection(manager.callTool("nope", "echo", {}));
    expect(error).toMatchObject({ name: "McpServerUnavailable", code: "MCP_UNKNOWN_SERVER" });
    expect(error.message).toContain("configured: a");
  });
});
