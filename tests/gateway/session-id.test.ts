import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signSessionId, verifySessionId } from "../../src/gateway/session-id.js";

describe("signed session ids", () => {
  const key = randomBytes(32);

  it("round-trips the claims under the same key", () => {
    const id = signSessionId(key, { client: "alice", protocolVersion: "2025-11-25", issuedAt: 1234 });
    expect(verifySessionId(key, id)).toEqual({ client: "alice", protocolVersion: "2025-11-25", issuedAt: 1234 });
    expect(signSessionId(key, { client: "alice", protocolVersion: "2025-11-25", issuedAt: 1234 })).not.toBe(id);
  });

  it("refuses another key, an altered payload or mac, and junk", () => {
    const id = signSessionId(key, { client: "alice", protocolVersion: "2025-11-25", issuedAt: 1 });
    expect(verifySessionId(randomBytes(32), id)).toBeUndefined();
    const [v, payload, mac] = id.split(".") as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), c: "mallory" })).toString("base64url");
    expect(verifySessionId(key, `${v}.${forged}.${mac}`)).toBeUndefined();
    expect(verifySessionId(key, `${v}.${payload}.${mac.slice(0, -2)}AA`)).toBeUndefined();
    for (const junk of ["", "s1", "s1..", "0b9a2f7e-uuid", `${id}.x`, "x".repeat(5000)]) expect(verifySessionId(key, junk)).toBeUndefined();
  });

  it("carries the client's declared capabilities and clientInfo, cut to what the gateway uses when large", () => {
    const declared = { capabilities: { roots: { listChanged: true }, elicitation: {} }, clientInfo: { name: "c", version: "1" } };
    const id = signSessionId(key, { client: "alice", protocolVersion: "2025-11-25", issuedAt: 1, declared });
    expect(verifySessionId(key, id)?.declared).toEqual(declared);
    const big = { capabilities: { sampling: {}, experimental: { blob: "x".repeat(5000) } }, clientInfo: { name: "n".repeat(500), version: "1" } };
    const bigId = signSessionId(key, { client: "alice", protocolVersion: "2025-11-25", issuedAt: 1, declared: big });
    expect(bigId.length).toBeLessThan(1024);
    expect(verifySessionId(key, bigId)?.declared).toEqual({ capabilities: { sampling: {} }, clientInfo: { name: "n".repeat(64), version: "1" } });
  });
});
