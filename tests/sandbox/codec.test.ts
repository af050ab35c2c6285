import { describe, expect, it } from "vitest";
import { BYTES_KEY, CodecError, decodeFromGuest, encodeForGuest, nestingDepth } from "../../src/sandbox/guest/codec.js";
import { createGuestBase64, createGuestCodec } from "../../src/sandbox/guest/guest-codec.js";

describe("host-side value codec", () => {
  it("round-trips JSON values and Uint8Array (Buffer included)", () => {
    const value = { a: [1, "two", null, true], bytes: new Uint8Array([0, 255]), buf: Buffer.from("hi") };
    const decoded = decodeFromGuest(encodeForGuest(value) as string) as Record<string, unknown>;
    expect(decoded.a).toEqual([1, "two", null, true]);
    expect(decoded.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(decoded.bytes as Uint8Array)).toEqual([0, 255]);
    expect(Buffer.from(decoded.buf as Uint8Array).toString()).toBe("hi");
  });

  it("encodes bytes as a one-key object under the reserved key", () => {
    expect(encodeForGuest(new Uint8Array([1, 2, 3]))).toBe(JSON.stringify({ [BYTES_KEY]: "AQID" }));
  });

  it("gives undefined for undefined and refuses what JSON cannot carry", () => {
    expect(encodeForGuest(undefined)).toBeUndefined();
    expect(() => encodeForGuest(1n)).toThrowError(CodecError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    try {
      encodeForGuest(cyclic);
      expect.fail("a cycle was encoded");
    } catch (error) {
      expect((error as CodecError).code).toBe("VALUE_NOT_SERIALIZABLE");
    }
  });

  it("drops prototype-polluting keys at every depth", () => {
    const decoded = decodeFromGuest('{"__proto__":{"p":1},"x":{"constructor":{"prototype":{}}},"y":[{"prototype":1}]}');
    expect(decoded).toEqual({ x: {}, y: [{}] });
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it("drops those keys and decodes bytes when the text spells them with escapes", () => {
    const decoded = decodeFromGuest('{"\\u005f_proto__":{"p":1},"a":{"constructo\\u0072":1,"b":2},"c":{"\\u0000BYTES":"AQI="},"d":{"\\u0000bytes":"AQI="}}');
    expect(Object.hasOwn(decoded as object, "__proto__")).toBe(false);
    expect((decoded as Record<string, unknown>).a).toEqual({ b: 2 });
    // Only the exact marker means bytes; a look-alike key stays data.
    expect((decoded as Record<string, unknown>).c).toEqual({ "\u0000BYTES": "AQI=" });
    expect(Array.from((decoded as Record<string, Uint8Array>).d ?? [])).toEqual([1, 2]);
    // Text with none of them parses the same on the fast path.
    expect(decodeFromGuest('[{"a":[1,"x",null]},true]')).toEqual([{ a: [1, "x", null] }, true]);
  });

  it("refuses text nested deeper than allowed, without recursing", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(nestingDepth(deep)).toBe(100_000);
    try {
      decodeFromGuest(deep);
      expect.fail("deep text was decoded");
    } catch (error) {
      expect((error as CodecError).code).toBe("VALUE_TOO_DEEP");
    }
  });

  it("ignores brackets inside strings when measuring depth", () => {
    expect(nestingDepth('{"a":"[[[{{\\"]]","b":[1]}')).toBe(2);
  });

  it("reports malformed text with a code", () => {
    try {
      decodeFromGuest("{oops");
      expect.fail("malformed text was decoded");
    } catch (error) {
      expect((error as CodecError).code).toBe("INVALID_JSON");
    }
  });
});

// The guest codec runs inside the sandbox in production; it is plain JavaScript, so it is checked here too.
describe("guest-side value codec", () => {
  const wrapBytes = (bytes: Uint8Array): unknown => ({ [BYTES_KEY]: createGuestBase64().encode(bytes) });
  const codec = createGuestCodec(BYTES_KEY, createGuestBase64, wrapBytes, { stringify: JSON.stringify, parse: JSON.parse, keysOf: Object.keys, isArray: Array.isArray, Bytes: Uint8Array });

  it("restores bytes from host text, nested or not", () => {
    const decoded = codec.decode(encodeForGuest({ ok: true, value: [new Uint8Array([0, 1, 255]), { b: Buffer.from("hi") }] }) as string);
    const [bytes, holder] = (decoded as { value: [Uint8Array, { b: Uint8Array }] }).value;
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(bytes)).toEqual([0, 1, 255]);
    expect(Buffer.from(holder.b).toString()).toBe("hi");
  });

  it("leaves plain data, and strings holding U+0000, as they are", () => {
    const value = { ok: true, value: { list: [1, "two", null], nul: "a\u0000b", [`${BYTES_KEY}x`]: "not bytes" } };
    expect(codec.decode(JSON.stringify(value))).toEqual(value);
  });

  it("sends bytes to the host under the reserved key", () => {
    const decoded = decodeFromGuest(codec.encode([new Uint8Array([1, 2, 3])]) as string) as [Uint8Array];
    expect(Array.from(decoded[0])).toEqual([1, 2, 3]);
  });
});
