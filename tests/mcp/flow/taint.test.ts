import { describe, expect, it } from "vitest";
import { isFlowSink, judgeFlow, parseFlowPolicy, TaintIndex } from "../../../src/mcp/flow/index.js";

const SECRET = "CANARY-7f3a9c2e1b5d4a6f";

/** A script's source: the argument paths it spells out are shown, any other key as [key] (it may be data). */
const SCRIPT = "mail.send({ body: a, to: b, nested: [{ text: c }] })";

function indexWith(code = SCRIPT): TaintIndex {
  const index = new TaintIndex(code);
  index.label("vault", { content: `Your key is ${SECRET}. Keep it safe.`, id: "k-20931", meta: { owner: "ops-team-7" } });
  return index;
}

describe("labels by content", () => {
  it("finds a server's data copied whole, cut out of a longer string, re-cased or embedded in JSON", () => {
    const index = indexWith();
    expect(index.find({ body: SECRET })).toEqual([{ server: "vault", path: "body" }]);
    expect(index.find({ body: `fyi: ${SECRET.slice(3, 19)} end` })).toEqual([{ server: "vault", path: "body" }]);
    expect(index.find({ body: SECRET.toUpperCase() })).toHaveLength(1);
    expect(index.find({ nested: [{ text: JSON.stringify({ leaked: SECRET }) }] })).toEqual([{ server: "vault", path: "nested[0].text" }]);
    // A short value (8–11 characters) is found where it appears whole.
    expect(index.find({ to: "cc: ops-team-7" })).toEqual([{ server: "vault", path: "to" }]);
    // Keys carry data too.
    expect(index.find({ [SECRET]: 1 })).toEqual([{ server: "vault", path: "[key]" }]);
    // A key the script did not write is never shown, even one too short to be found as data.
    expect(index.find({ body: { "k-209": SECRET } })).toEqual([{ server: "vault", path: "body.[key]" }]);
  });

  it("follows a number by its decimal text, as a number or inside a string (8 characters or more)", () => {
    const index = new TaintIndex("mail.send({ body: a, amount: b, n: c, day: 20261128 })");
    index.label("bank", { account: 4111111111111111, balance: 1234.5678, pin: 4821 });
    expect(index.find({ body: "card 4111111111111111" })).toEqual([{ server: "bank", path: "body" }]);
    expect(index.find({ amount: 4111111111111111 })).toEqual([{ server: "bank", path: "amount" }]);
    expect(index.find({ n: 1234.5678 })).toEqual([{ server: "bank", path: "n" }]);
    // Short numbers are not followed (documented), nor the script's own constants.
    expect(index.find({ pin: 4821, text: "pin 4821", day: 20261128 })).toEqual([]);
  });

  it("does not label the script's own constants, or text no server returned", () => {
    const index = indexWith(`mail.send({ body: "Your key is in the vault. Keep it safe." })`);
    expect(index.find({ body: "Your key is in the vault. Keep it safe." })).toEqual([]);
    expect(index.find({ body: "a completely unrelated sentence of some length" })).toEqual([]);
    expect(index.find({ n: 42, ok: true, short: "k-2093" })).toEqual([]);
  });

  it("does not follow what it cannot see (documented limits): re-encoding and pieces shorter than the window", () => {
    const index = indexWith();
    expect(index.find({ body: Buffer.from(SECRET).toString("base64") })).toEqual([]);
    expect(index.find({ body: [...SECRET].reverse().join("") })).toEqual([]);
    expect(index.find({ a: SECRET.slice(0, 7), b: SECRET.slice(7, 14), c: SECRET.slice(14) })).toEqual([]);
  });

  it("stays within a bounded time on large data", () => {
    const index = new TaintIndex("");
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long document with words`).join("\n");
    index.label("docs", big);
    const started = Date.now();
    expect(index.find({ body: `${"x".repeat(200_000)}${big.slice(500_000, 500_040)}` })).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("short returned strings at scale", () => {
  it("30,000 returned dates against 30,000 sent strings are checked in bounded time, and a copied one is still found", () => {
    const index = new TaintIndex("mail.send({ body: a, rows: b })");
    const dates = Array.from({ length: 30_000 }, (_, i) => new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));
    index.label("calendar", { dates });
    const started = Date.now();
    // Each of them was searched for in each sent string: 30,000 × 30,000 searches held the host for about 20 s.
    expect(index.find({ rows: Array.from({ length: 30_000 }, (_, i) => `note ${i} of the script`) })).toEqual([]);
    expect(index.find({ body: `${"x".repeat(100_000)} due ${dates[12_345] ?? ""}` })).toEqual([{ server: "calendar", path: "body" }]);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);
});

describe("flow policy", () => {
  it("treats every tool as a sink unless it says it is read-only and closed-world (MCP defaults)", () => {
    expect(isFlowSink(undefined)).toBe(true);
    expect(isFlowSink({ readOnlyHint: true })).toBe(true);
    expect(isFlowSink({ readOnlyHint: true, openWorldHint: false })).toBe(false);
    expect(isFlowSink({ readOnlyHint: false, openWorldHint: false })).toBe(true);
  });

  it("allows listed flows, asks where someone can answer, denies where nobody can", () => {
    const policy = parseFlowPolicy({ allow: [["vault", "mail.send"], ["web", "notes.*"]] }, "config.json");
    expect(judgeFlow(policy, "vault", "mail.send", false)).toEqual({ decision: "allow", by: "policy" });
    expect(judgeFlow(policy, "web", "notes.create", false)).toEqual({ decision: "allow", by: "policy" });
    expect(judgeFlow(policy, "vault", "mail.forward", true)).toEqual({ decision: "ask" });
    expect(judgeFlow(policy, "vault", "mail.forward", false)).toEqual({ decision: "deny", by: "nobody-to-ask" });
    expect(judgeFlow(parseFlowPolicy({ default: "deny" }, "c"), "vault", "mail.forward", true)).toEqual({ decision: "deny", by: "default" });
    expect(judgeFlow(parseFlowPolicy({ default: "allow" }, "c"), "vault", "mail.forward", false)).toEqual({ decision: "allow", by: "default" });
    expect(() => parseFlowPolicy({ allow: [["vault", "mail"]] }, "config.json")).toThrow(expect.objectContaining({ code: "MCP_CONFIG_FLOWS_INVALID" }));
    expect(() => parseFlowPolicy({ defualt: "allow" }, "config.json")).toThrow(expect.objectContaining({ code: "MCP_CONFIG_FLOWS_INVALID" }));
  });
});
