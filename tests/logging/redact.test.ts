import { describe, expect, it } from "vitest";
import { guestNumberText, REDACTED, Redactor } from "../../src/logging/redact.js";

const SECRET = "sk-canary-7f3a9c2e";

describe("Redactor", () => {
  it("replaces a secret wherever it appears in plain text", () => {
    const r = new Redactor([SECRET]);
    expect(r.redact(`token=${SECRET}; again ${SECRET}`)).toBe(`token=${REDACTED}; again ${REDACTED}`);
  });

  it("catches URL-encoded, JSON-escaped and base64 forms", () => {
    const secret = 'p@ss "word"/with spaces';
    const r = new Redactor([secret]);
    expect(r.redact(`https://x.test/?k=${encodeURIComponent(secret)}`)).not.toContain(encodeURIComponent(secret));
    expect(r.redact(JSON.stringify({ k: secret }))).toBe(`{"k":"${REDACTED}"}`);
    expect(r.redact(`Basic ${Buffer.from(secret).toString("base64")}`)).toBe(`Basic ${REDACTED}`);
  });

  it("catches a secret inside a longer base64 body at any byte alignment", () => {
    const r = new Redactor([SECRET]);
    for (const prefix of ["", "a", "ab", "abc"]) {
      const body = Buffer.from(`${prefix}user:${SECRET}:tail`).toString("base64");
      const out = r.redact(body);
      expect(out, `prefix ${JSON.stringify(prefix)}`).toContain(REDACTED);
    }
  });

  it("ignores values too short to be secrets", () => {
    const r = new Redactor(["on", "1"]);
    expect(r.size).toBe(0);
    expect(r.redact("on 1")).toBe("on 1");
  });

  it("redacts keys and values of nested data without touching the input", () => {
    const r = new Redactor([SECRET]);
    const input = { [SECRET]: [SECRET, { deep: `x${SECRET}x` }], n: 1 };
    expect(r.redactValue(input)).toEqual({ [REDACTED]: [REDACTED, { deep: `x${REDACTED}x` }], n: 1 });
    expect(Object.keys(input)[0]).toBe(SECRET);
  });

  it("catches a secret split across stream chunks", () => {
    const r = new Redactor([SECRET]);
    const stream = r.stream();
    let out = "";
    const text = `log line with ${SECRET} inside and ${SECRET}`;
    for (let i = 0; i < text.length; i += 3) out += stream.write(text.slice(i, i + 3));
    out += stream.end();
    expect(out).toBe(`log line with ${REDACTED} inside and ${REDACTED}`);
  });
});

describe("guestNumberText: guest-derived numbers in text that passes the redactor", () => {
  it("shows numbers of up to 3 digits, which no masked value (4+ characters) can equal", () => {
    expect(guestNumberText(0)).toBe("0");
    expect(guestNumberText(999)).toBe("999");
    expect(guestNumberText("12")).toBe("12");
  });

  it("never shows a larger one: a 6-digit PIN would come back masked and tell the guest it guessed right", () => {
    const redactor = new Redactor(["482915"]);
    expect(redactor.redact(`got ${guestNumberText(482915)}`)).toBe(`got ${guestNumberText(482916)}`);
    expect(guestNumberText(1000)).toBe("1000 or more");
  });
});
