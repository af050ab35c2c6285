import { describe, expect, it } from "vitest";
import { displayBlock, displayInline, hasUnsafeDisplayChars } from "../../src/terminal/display.js";
import { formatLogs, formatRunError, formatValue } from "../../src/terminal/render/run-result.js";
import { renderCallConfirmation, renderConfirmedCall } from "../../src/terminal/render/call-confirmation.js";
import type { RunResult } from "../../src/sandbox/types.js";

const plain = { enabled: false, bold: (t: string) => t, dim: (t: string) => t, red: (t: string) => t, green: (t: string) => t, yellow: (t: string) => t, cyan: (t: string) => t };
// Every character a terminal acts on: C0 (but \n and \t in blocks), DEL, C1, bidi and invisible formatting.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

describe("display escaping", () => {
  it("inline text escapes every control, bidi and invisible character, newlines included", () => {
    const text = "a\u001b[2Kb\r\nc\u009bd\u202ee\u200bf\u0000";
    expect(displayInline(text)).toBe("a\\x1b[2Kb\\r\\nc\\x9bd\\u202ee\\u200bf\\x00");
    expect(hasUnsafeDisplayChars(text)).toBe(true);
    expect(hasUnsafeDisplayChars("plain name-1.x")).toBe(false);
  });

  it("block text keeps newlines and tabs and escapes the rest", () => {
    expect(displayBlock("line 1\n\tline 2\u001b[1A\r")).toBe("line 1\n\tline 2\\x1b[1A\\r");
  });

  it("run results, logs and errors are escaped, also inside JSON (which leaves C1 and bidi alone)", () => {
    const hostile = "x\u001b[2J\u009b1A\u202ey";
    expect(formatValue(hostile)).not.toMatch(UNSAFE);
    expect(formatValue({ text: hostile })).not.toMatch(UNSAFE);
    const result = {
      ok: false,
      logs: [{ level: "log", message: hostile }, { level: "error", message: hostile }],
      error: { name: `Error${hostile}`, code: "GUEST_ERROR", message: hostile, stack: hostile },
      stats: { engine: "quickjs", wallMs: 1, cpuMs: 1, hostCalls: 0 },
    } as unknown as RunResult & { ok: false };
    for (const line of formatLogs(result, plain)) expect(line).not.toMatch(UNSAFE);
    expect(formatRunError(result, plain)).not.toMatch(UNSAFE);
  });

  it("a call confirmation cannot be repainted by the tool name or its arguments", () => {
    const text = renderCallConfirmation({ server: "fx", tool: "send\r\u001b[2Kread_only", args: { to: "\u009b1A\u202e" }, policy: "destructive" } as never);
    expect(text).not.toMatch(UNSAFE);
    expect(text).toContain("send\\r\\x1b[2Kread_only");
  });

  it("the one-line record of a --yes confirmation cannot be repainted either, and its escapes count toward its width", () => {
    const line = renderConfirmedCall({ server: "fx", tool: "send\r\u001b[2Kread_only", args: { to: "\u009b1A\u202e", list: [1, 2], opts: { a: 1, b: 2 } }, policy: "destructive" } as never, 100);
    expect(line).not.toMatch(UNSAFE);
    expect(line).toBe('confirmed (--yes): fx.send\\r\\x1b[2Kread_only to="\\x9b1A\\u202e" list=[2 items] opts={a,b}');
    const cut = renderConfirmedCall({ server: "fx", tool: "send\u001b[2K", args: { to: "\u202e".repeat(30) }, policy: "destructive" } as never, 60);
    expect(cut).not.toMatch(UNSAFE);
    expect(cut).toMatch(/^confirmed \(--yes\): fx\.send\\x1b\[2K to="(\\u202e)+(\\u[0-9a-f]{0,3})?…$/);
    expect(Array.from(cut)).toHaveLength(60);
  });
});
