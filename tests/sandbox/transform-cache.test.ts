import { describe, expect, it } from "vitest";
import { transformGuestSource } from "../../src/sandbox/guest/transform.js";
import { TRANSFORM_CACHE_CAPACITY, transformGuestSourceCached } from "../../src/sandbox/guest/transform-cache.js";

describe("the guest transform, remembered for recent scripts", () => {
  it("gives the same script the same (frozen) result as the transform itself, without parsing it again", () => {
    const code = 'import { read } from "host:fs-read";\nreturn read("a");';
    const first = transformGuestSourceCached(code);
    expect(first).toEqual(transformGuestSource(code));
    expect(transformGuestSourceCached(code)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    if (first.ok) expect(Object.isFrozen(first.source)).toBe(true);
    const other = transformGuestSourceCached(`${code} // another script`);
    expect(other).not.toBe(first);
    expect(other.ok && other.source.original).toBe(`${code} // another script`);
  });

  it("reports a syntax error every time, and keeps only the most recent scripts", () => {
    const broken = transformGuestSourceCached("return (");
    expect(broken.ok).toBe(false);
    expect(transformGuestSourceCached("return (")).toEqual(broken);
    const oldest = transformGuestSourceCached("return 'oldest';");
    for (let i = 0; i < TRANSFORM_CACHE_CAPACITY; i++) transformGuestSourceCached(`return ${i};`);
    const again = transformGuestSourceCached("return 'oldest';");
    expect(again).not.toBe(oldest);
    expect(again).toEqual(oldest);
  });
});
