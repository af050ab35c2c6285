import { describe, expect, it } from "vitest";
import { diffServers, isEmptyDiff, mergeEntries, restartNeeded } from "../../src/gateway/config-diff.js";

// The pure half of following config.json in a running gateway (src/gateway/config-follow.ts applies it).

describe("diffServers", () => {
  const a = { command: "node", args: ["a.js"], enabled: true };
  const b = { command: "node", args: ["b.js"], enabled: true };

  it("sorts servers into added, removed, changed and unchanged", () => {
    const diff = diffServers({ a, b, gone: a }, { a: { ...a }, b: { ...b, args: ["b.js", "--flag"] }, fresh: b });
    expect(diff).toEqual({ added: ["fresh"], removed: ["gone"], changed: ["b"], unchanged: ["a"] });
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it("compares by value: key order does not matter, argument order and enabled do", () => {
    const reordered = { enabled: true, args: ["a.js"], command: "node" };
    expect(isEmptyDiff(diffServers({ a }, { a: reordered }))).toBe(true);
    expect(diffServers({ a: { ...a, args: ["x", "y"] } }, { a: { ...a, args: ["y", "x"] } }).changed).toEqual(["a"]);
    expect(diffServers({ a }, { a: { ...a, enabled: false } }).changed).toEqual(["a"]);
    expect(diffServers({ a: { ...a, env: { K: "1" } } }, { a: { ...a, env: { K: "2" } } }).changed).toEqual(["a"]);
  });

  it("keeps the entry objects of unchanged servers (the approval re-check trusts the same object)", () => {
    const before = { a, b };
    const after = { a: { ...a }, b: { ...b, command: "deno" } };
    const merged = mergeEntries(before, after, diffServers(before, after));
    expect(merged.a).toBe(a);
    expect(merged.b).toBe(after.b);
  });
});

describe("restartNeeded", () => {
  it("names what changed outside mcpServers, per key for gateway and plugins", () => {
    const running = { mcpServers: { a: {} }, gateway: { maxSessions: 10, fastLane: true }, plugins: { mcp: { enabled: true } } };
    const next = { mcpServers: { b: {} }, gateway: { fastLane: true, maxSessions: 20, oauth: { issuer: "https://id.example" } }, plugins: { mcp: { enabled: true } }, engine: "quickjs" as const };
    expect(restartNeeded(running, next)).toEqual(["engine", "gateway.maxSessions", "gateway.oauth"]);
    expect(restartNeeded(running, { ...running, mcpServers: {} })).toEqual([]);
    expect(restartNeeded({ gateway: { maxSessions: 10 } }, {})).toEqual(["gateway.maxSessions"]);
  });
});
