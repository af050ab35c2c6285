import { lstat, mkdir, readFile, readdir, symlink } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fsWrite from "../../plugins/fs-write/index.js";
import type { HostFunction } from "../../src/sandbox/types.js";
import { createFsLayout, type FsLayout } from "./fs-layout.js";
import { expectFailure, hostModule, invoke } from "./helpers.js";

let layout: FsLayout;
let fns: Record<string, HostFunction>;
const call = (name: string, ...args: unknown[]) => invoke(fns, name, ...args);
const inBase = (path: string) => readFile(join(layout.base, path), "utf8");

beforeEach(async () => {
  layout = await createFsLayout();
  fns = await hostModule(fsWrite, "fs-write", { baseDir: layout.base, maxWriteBytes: 32 });
});
afterEach(async () => layout.cleanup());

describe("fs-write: writing inside the base directory", () => {
  it("creates and replaces files, returning the bytes written", async () => {
    expect(await call("writeFile", "new.txt", "héllo")).toBe(6);
    expect(await inBase("new.txt")).toBe("héllo");
    expect(await call("writeFile", "new.txt", "hi")).toBe(2);
    expect(await inBase("new.txt")).toBe("hi");
  });

  it("decodes content in other encodings and writes raw bytes", async () => {
    await call("writeFile", "b64.bin", Buffer.from([0, 1, 2, 255]).toString("base64"), { encoding: "base64" });
    expect([...(await readFile(join(layout.base, "b64.bin")))]).toEqual([0, 1, 2, 255]);
    expect(await call("writeBinary", "raw.bin", new Uint8Array([9, 8, 7]))).toBe(3);
    expect([...(await readFile(join(layout.base, "raw.bin")))]).toEqual([9, 8, 7]);
  });

  it("refuses to replace an existing file when overwrite is false", async () => {
    await expectFailure(call("writeFile", "hello.txt", "x", { overwrite: false }), "FS_EXISTS", layout.hidden);
    await expectFailure(call("writeBinary", "hello.txt", new Uint8Array([1]), { overwrite: false }), "FS_EXISTS");
    expect(await inBase("hello.txt")).toBe("hello wörld");
    expect(await call("writeFile", "fresh.txt", "x", { overwrite: false })).toBe(1);
  });

  it("appends, creating the file when missing", async () => {
    expect(await call("appendFile", "log.txt", "a\n")).toBe(2);
    expect(await call("appendFile", "log.txt", "b\n")).toBe(2);
    expect(await inBase("log.txt")).toBe("a\nb\n");
  });

  it("writes through a symlink that stays inside the base", async () => {
    await call("writeFile", "link-inside", "via link");
    expect(await inBase("hello.txt")).toBe("via link");
    await call("writeFile", "dirlink-inside/nested.txt", "changed");
    expect(await inBase("sub/nested.txt")).toBe("changed");
  });

  it("needs the parent directory to exist and says to mkdir it", async () => {
    const error = await expectFailure(call("writeFile", "a/b/c.txt", "x"), "FS_NOT_FOUND", layout.hidden);
    expect(error.message).toContain("mkdir");
  });

  it("refuses to write to a directory or to the base itself", async () => {
    await expectFailure(call("writeFile", "sub", "x"), "FS_NOT_FILE", layout.hidden);
    await expectFailure(call("writeFile", ".", "x"), "FS_INVALID_PATH", layout.hidden);
  });
});

describe("fs-write: mkdir and remove", () => {
  it("creates directories recursively and is idempotent", async () => {
    expect(await call("mkdir", "a/b/c")).toBe(true);
    expect((await lstat(join(layout.base, "a/b/c"))).isDirectory()).toBe(true);
    expect(await call("mkdir", "a/b/c")).toBe(false);
    expect(await call("mkdir", "dirlink-inside/deeper")).toBe(true);
    expect(existsSync(join(layout.base, "sub/deeper"))).toBe(true);
  });

  it("refuses mkdir where a file is in the way", async () => {
    await expectFailure(call("mkdir", "hello.txt/x"), "FS_NOT_DIRECTORY", layout.hidden);
  });

  it("removes files, empty directories and, with recursive, whole trees", async () => {
    await call("remove", "hello.txt");
    expect(existsSync(join(layout.base, "hello.txt"))).toBe(false);
    await expectFailure(call("remove", "sub"), "FS_NOT_EMPTY", layout.hidden);
    await call("remove", "sub", { recursive: true });
    expect(existsSync(join(layout.base, "sub"))).toBe(false);
    await mkdir(join(layout.base, "empty"));
    await call("remove", "empty");
    expect(existsSync(join(layout.base, "empty"))).toBe(false);
  });

  it("removes a symlink itself, never what it points to", async () => {
    await call("remove", "link-outside");
    await call("remove", "dirlink-outside");
    expect(existsSync(join(layout.base, "link-outside"))).toBe(false);
    expect(await readFile(join(layout.outside, "secret.txt"), "utf8")).toBe("top secret");
  });

  it("does not follow symlinks inside a directory removed recursively", async () => {
    await mkdir(join(layout.base, "tree"));
    await symlink(layout.outside, join(layout.base, "tree", "escape"));
    await call("remove", "tree", { recursive: true });
    expect(await readdir(layout.outside)).toEqual(["secret.txt"]);
  });

  it("refuses to remove the base directory or missing entries", async () => {
    await expectFailure(call("remove", "."), "FS_INVALID_PATH");
    await expectFailure(call("remove", "nope"), "FS_NOT_FOUND", layout.hidden);
  });
});

describe("fs-write: size caps", () => {
  it("refuses writes above maxWriteBytes before touching the file", async () => {
    await expectFailure(call("writeFile", "big.txt", "x".repeat(33)), "FS_TOO_LARGE", layout.hidden);
    expect(existsSync(join(layout.base, "big.txt"))).toBe(false);
    await expectFailure(call("writeBinary", "hello.txt", new Uint8Array(33)), "FS_TOO_LARGE");
    expect(await inBase("hello.txt")).toBe("hello wörld");
  });

  it("refuses appends that would grow a file past maxWriteBytes", async () => {
    await expectFailure(call("appendFile", "hello.txt", "x".repeat(21)), "FS_TOO_LARGE", layout.hidden);
    expect(await inBase("hello.txt")).toBe("hello wörld");
    expect(await call("appendFile", "hello.txt", "x".repeat(20))).toBe(20);
  });
});

describe("fs-write: escapes are refused and nothing outside changes", () => {
  const outsideUntouched = async () => {
    expect(await readdir(layout.outside)).toEqual(["secret.txt"]);
    expect(await readFile(join(layout.outside, "secret.txt"), "utf8")).toBe("top secret");
  };

  it("refuses '..' and absolute paths", async () => {
    await expectFailure(call("writeFile", "../outside/secret.txt", "pwned"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("writeFile", join(layout.outside, "secret.txt"), "pwned"), "FS_OUTSIDE_BASE");
    await expectFailure(call("mkdir", "../outside/new"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("remove", "../outside/secret.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    await outsideUntouched();
  });

  it("refuses writing through a symlink to an outside file", async () => {
    await expectFailure(call("writeFile", "link-outside", "pwned"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("appendFile", "link-outside", "pwned"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("writeBinary", "link-outside", new Uint8Array([1])), "FS_OUTSIDE_BASE", layout.hidden);
    await outsideUntouched();
  });

  it("refuses writing through a dangling symlink that would create an outside file", async () => {
    await expectFailure(call("writeFile", "dangling", "pwned"), "FS_SYMLINK", layout.hidden);
    await outsideUntouched();
  });

  it("refuses paths through a symlinked parent directory", async () => {
    await expectFailure(call("writeFile", "dirlink-outside/new.txt", "pwned"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("writeFile", "dirlink-outside/secret.txt", "pwned"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("mkdir", "dirlink-outside/new/deeper"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("remove", "dirlink-outside/secret.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    await outsideUntouched();
  });

  it("validates arguments with the call's signature", async () => {
    const error = await expectFailure(call("writeBinary", "x.bin", [1, 2, 3]), "FS_INVALID_ARGUMENT");
    expect(error.message).toContain("writeBinary(path, data, options?)");
    await expectFailure(call("writeFile", "x.txt"), "FS_INVALID_ARGUMENT");
    await expectFailure(call("remove", "x", { recursive: "yes" }), "FS_INVALID_ARGUMENT");
  });
});
