import { describe, it, expect } from "vitest";
import { MAX_DESCRIPTION_LENGTH, sanitizeDescription } from "../../../src/mcp/sanitise/index.js";

describe("sanitizeDescription: untrusted tool text made safe for JSDoc and for the model", () => {
  it("removes ANSI sequences and control characters but keeps newlines and tabs", () => {
    expect(sanitizeDescription("\u001b[31mred\u001b[0m text\u0007\u0000 and\tmore\nlines")).toBe("red text and\tmore\nlines");
    expect(sanitizeDescription("title\u001b]0;pwned\u0007 here")).toBe("title here");
  });

  it("neutralises a comment terminator so the JSDoc block cannot be closed early", () => {
    expect(sanitizeDescription("ends here */ declare const evil: 1; /*")).toBe("ends here *\\/ declare const evil: 1; /*");
  });

  it("turns line and paragraph separators and carriage returns into plain newlines", () => {
    expect(sanitizeDescription("a\u2028b\u2029c\rd")).toBe("a\nb\nc\nd");
  });

  it("caps the length at 2,000 characters with an ellipsis, never splitting a surrogate pair", () => {
    expect(MAX_DESCRIPTION_LENGTH).toBe(2000);
    const long = sanitizeDescription("x".repeat(5000));
    expect(long).toHaveLength(2000);
    expect(long.endsWith("x…")).toBe(true);
    const emoji = sanitizeDescription(`${"x".repeat(8)}😀😀`, 10);
    expect(emoji).toBe(`${"x".repeat(8)}…`);
  });
});
