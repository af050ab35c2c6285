import { describe, expect, it } from "vitest";
import { expectRejection, fixture, isAlive, managerFor, readStarts, startsFile, waitFor, closeManagersAfterEach } from "./helpers.js";

// retire(): how a running gateway takes out a server config.json removed or changed (src/gateway/config-follow.ts).

const track = closeManagersAfterEach();

async function pidOf(manager: { callToolRaw(name: string, tool: string, args: Record<string, unknown>): Promise<{ structuredContent?: unknown }> }): Promise<number> {
  return ((await manager.callToolRaw("a", "pid", {})).structuredContent as { pid: number }).pid;
}

describe("ClientManager.retire", () => {
  it("lets the call in flight finish, refuses new ones at once, then closes the process", async () => {
    const starts = startsFile();
    const { manager, events } = track(managerFor([fixture("a", [], { starts })]));
    const pid = await pidOf(manager);
    const slow = manager.callTool("a", "sleep", { ms: 1_500 });
    await waitFor(() => manager.status("a").inFlight === 1, 5_000);
    const retired = manager.retire("a", 10_000);
    expect(manager.serverNames()).toEqual([]);
    expect(await expectRejection(manager.callTool("a", "echo", { text: "x" }))).toMatchObject({ code: "MCP_UNKNOWN_SERVER" });
    expect(isAlive(pid)).toBe(true);
    await expect(slow).resolves.toBeDefined();
    await retired;
    expect(isAlive(pid)).toBe(false);
    // The retired slot's close is not reported as the state of whatever now has its name.
    expect(events.filter((e) => e.type === "state" && e.state === "closed")).toEqual([]);
  });

  // The old call outlasts the new server's start even on a loaded machine.
  it("a name set again gets a fresh server while the old one drains", { timeout: 30_000 }, async () => {
    const starts = startsFile();
    const { manager } = track(managerFor([fixture("a", [], { starts })]));
    const oldPid = await pidOf(manager);
    const slow = manager.callTool("a", "sleep", { ms: 6_000 });
    await waitFor(() => manager.status("a").inFlight === 1, 5_000);
    const retired = manager.retire("a", 10_000);
    manager.setServer("a", async () => fixture("a", ["--mode", "awkward-names"], { starts }));
    const newPid = await pidOf(manager);
    expect(newPid).not.toBe(oldPid);
    expect(isAlive(oldPid)).toBe(true);
    await slow;
    await retired;
    expect(isAlive(oldPid)).toBe(false);
    expect(isAlive(newPid)).toBe(true);
    expect(readStarts(starts)).toHaveLength(2);
  });

  // A config.json edit loop during slow calls (gateway/config-follow.ts): each retired server keeps its
  // process until its call ends, and that process holds its place under maxLiveConnections.
  it("an edit loop during slow calls never runs more processes than maxLiveConnections", { timeout: 60_000 }, async () => {
    const starts = startsFile();
    const { manager } = track(managerFor([fixture("a", [], { starts })], { limits: { maxLiveConnections: 1 } }));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, readStarts(starts).filter((start) => isAlive(start.pid)).length)), 10);
    try {
      const calls: Promise<unknown>[] = [];
      const retirements: Promise<void>[] = [];
      for (let edit = 0; edit < 3; edit += 1) {
        calls.push(manager.callTool("a", "sleep", { ms: 800 }));
        await waitFor(() => manager.status("a").inFlight === 1, 15_000);
        retirements.push(manager.retire("a", 10_000));
        manager.setServer("a", async () => fixture("a", [], { starts }));
      }
      calls.push(manager.callTool("a", "echo", { text: "after the edits" }));
      await Promise.all(calls);
      await Promise.all(retirements);
    } finally {
      clearInterval(sampler);
    }
    expect(readStarts(starts)).toHaveLength(4);
    expect(most).toBe(1);
  });

  it("stops waiting for a hung call after drainMs", async () => {
    const { manager } = track(managerFor([fixture("a", ["--mode", "hang-call"])]));
    await manager.connect("a");
    const pid = manager.status("a").pid as number;
    const hung = manager.callTool("a", "echo", { text: "never" }).catch((error: unknown) => error);
    await waitFor(() => manager.status("a").inFlight === 1, 5_000);
    const started = Date.now();
    await manager.retire("a", 300);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Past drainMs the call is cut off by the close, with the manager's error naming the server.
    expect(String(await hung)).toMatch(/MCP tool a\.echo failed/);
    await waitFor(() => !isAlive(pid), 10_000);
  });

  it("closes a server still draining when the whole manager closes", async () => {
    const { manager } = track(managerFor([fixture("a", ["--mode", "hang-call"])]));
    await manager.connect("a");
    const pid = manager.status("a").pid as number;
    const hung = manager.callTool("a", "echo", { text: "never" }).catch((error: unknown) => error);
    await waitFor(() => manager.status("a").inFlight === 1, 5_000);
    const retired = manager.retire("a", 60_000);
    await manager.closeAll();
    await hung;
    await retired;
    await waitFor(() => !isAlive(pid), 10_000);
  });
});
