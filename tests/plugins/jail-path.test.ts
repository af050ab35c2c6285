import { describe, expect, it } from "vitest";
import { isInside, parseGuestPath } from "../../src/plugins/index.js";

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("parseGuestPath (pure path jail)", () => {
  it("splits relative paths into segments, ignoring '.', repeated and trailing separators", () => {
    expect(parseGuestPath("notes/todo.txt")).toEqual({ segments: ["notes", "todo.txt"], shown: "notes/todo.txt" });
    expect(parseGuestPath("./a//b/./c/")).toEqual({ segments: ["a", "b", "c"], shown: "a/b/c" });
    expect(parseGuestPath("a\\b")).toEqual({ segments: ["a", "b"], shown: "a/b" });
  });

  it("treats '.' as the base directory itself", () => {
    expect(parseGuestPath(".")).toEqual({ segments: [], shown: "." });
    expect(parseGuestPath("./")).toEqual({ segments: [], shown: "." });
  });

  it("refuses '..' anywhere, even when it would stay inside", () => {
    for (const path of ["..", "../x", "a/../../x", "a/..", "a/../b", "..\\x", "a\\..\\..\\x"]) {
      expect(codeOf(() => parseGuestPath(path)), path).toBe("FS_OUTSIDE_BASE");
    }
  });

  it("keeps names that merely start with dots", () => {
    expect(parseGuestPath("..hidden/...").segments).toEqual(["..hidden", "..."]);
  });

  it("refuses absolute paths and drive letters", () => {
    for (const path of ["/etc/passwd", "\\\\server\\share", "C:\\Windows", "c:/x", "//x"]) {
      expect(codeOf(() => parseGuestPath(path)), path).toBe("FS_OUTSIDE_BASE");
    }
  });

  it("refuses empty paths, NUL bytes and absurd lengths", () => {
    expect(codeOf(() => parseGuestPath(""))).toBe("FS_INVALID_PATH");
    expect(codeOf(() => parseGuestPath("a\0b"))).toBe("FS_INVALID_PATH");
    expect(codeOf(() => parseGuestPath("a/".repeat(3000)))).toBe("FS_INVALID_PATH");
  });
});

describe("isInside", () => {
  it("accepts the root and paths below it", () => {
    expect(isInside("/srv/base", "/srv/base")).toBe(true);
    expect(isInside("/srv/base", "/srv/base/a/b")).toBe(true);
    expect(isInside("/srv/base", "/srv/base/..hidden")).toBe(true);
  });

  it("rejects siblings with a common prefix, parents and unrelated paths", () => {
    expect(isInside("/srv/base", "/srv/base-other/x")).toBe(false);
    expect(isInside("/srv/base", "/srv")).toBe(false);
    expect(isInside("/srv/base", "/etc/passwd")).toBe(false);
  });
});
