import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import fsRead from "../../plugins/fs-read/index.js";
import type { HostFunction } from "../../src/sandbox/types.js";
import { createFsLayout, type FsLayout } from "./fs-layout.js";
import { expectFailure, hostModule, invoke } from "./helpers.js";

let layout: FsLayout;
let fns: Record<string, HostFunction>;
const call = (name: string, ...args: unknown[]) => invoke(fns, name, ...args);

beforeEach(async () => {
  layout = await createFsLayout();
  fns = await hostModule(fsRead, "fs-read", { baseDir: layout.base, maxReadBytes: 64 });
});
afterEach(async () => layout.cleanup());

describe("fs-read: reading inside the base directory", () => {
  it("reads text files by relative path, in any separator style", async () => {
    expect(await call("readFile", "hello.txt")).toBe("hello wörld");
    expect(await call("readFile", "./sub//nested.txt")).toBe("nested");
    expect(await call("readFile", "sub\\nested.txt")).toBe("nested");
  });

  it("reads with other encodings", async () => {
    expect(await call("readFile", "sub/nested.txt", { encoding: "base64" })).toBe(Buffer.from("nested").toString("base64"));
    expect(await call("readFile", "sub/nested.txt", { encoding: "hex" })).toBe(Buffer.from("nested").toString("hex"));
  });

  it("reads binary files as an exact-length Uint8Array", async () => {
    const bytes = await call("readBinary", "hello.txt");
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes as Uint8Array).toString("utf8")).toBe("hello wörld");
    expect((bytes as Uint8Array).buffer.byteLength).toBe(12);
  });

  it("follows symlinks that stay inside the base", async () => {
    expect(await call("readFile", "link-inside")).toBe("hello wörld");
    expect(await call("readFile", "dirlink-inside/nested.txt")).toBe("nested");
  });

  it("lists a directory sorted by name, reporting symlinks without following them", async () => {
    expect(await call("listDir", ".")).toEqual([
      { name: "dangling", type: "symlink", size: 0 },
      { name: "dirlink-inside", type: "symlink", size: 0 },
      { name: "dirlink-outside", type: "symlink", size: 0 },
      { name: "hello.txt", type: "file", size: 12 },
      { name: "link-inside", type: "symlink", size: 0 },
      { name: "link-outside", type: "symlink", size: 0 },
      { name: "sub", type: "directory", size: 0 },
    ]);
  });

  it("stats files and directories", async () => {
    const info = (await call("stat", "hello.txt")) as { type: string; size: number; modified: string };
    expect(info).toMatchObject({ type: "file", size: 12 });
    expect(Date.parse(info.modified)).toBeGreaterThan(Date.now() - 60_000);
    expect(await call("stat", "sub")).toMatchObject({ type: "directory", size: 0 });
  });

  it("answers exists with true or false", async () => {
    expect(await call("exists", "hello.txt")).toBe(true);
    expect(await call("exists", ".")).toBe(true);
    expect(await call("exists", "nope.txt")).toBe(false);
    expect(await call("exists", "hello.txt/child")).toBe(false);
  });
});

describe("fs-read: chunks and size caps", () => {
  it("refuses files above maxReadBytes and says to use readChunk", async () => {
    fns = await hostModule(fsRead, "fs-read", { baseDir: layout.base, maxReadBytes: 8 });
    const error = await expectFailure(call("readFile", "hello.txt"), "FS_TOO_LARGE", layout.hidden);
    expect(error.message).toContain("readChunk");
    await expectFailure(call("readBinary", "hello.txt"), "FS_TOO_LARGE", layout.hidden);
  });

  it("reads a file in chunks that never split a UTF-8 character", async () => {
    const first = await call("readChunk", "hello.txt", 0, 8);
    expect(first).toEqual({ content: "hello w", bytesRead: 7, nextOffset: 7, size: 12, eof: false });
    let offset = 0;
    let text = "";
    for (let step = 0; step < 20; step += 1) {
      const chunk = (await call("readChunk", "hello.txt", offset, 3)) as { content: string; nextOffset: number; eof: boolean };
      text += chunk.content;
      offset = chunk.nextOffset;
      if (chunk.eof) break;
    }
    expect(text).toBe("hello wörld");
  });

  it("returns raw bytes for encoding 'bytes' and an empty chunk past the end", async () => {
    const chunk = (await call("readChunk", "hello.txt", 6, 3, { encoding: "bytes" })) as { content: Uint8Array };
    expect(Array.from(chunk.content)).toEqual([0x77, 0xc3, 0xb6]);
    expect(await call("readChunk", "hello.txt", 100, 4)).toEqual({ content: "", bytesRead: 0, nextOffset: 100, size: 12, eof: true });
  });

  it("refuses chunk lengths above maxReadBytes", async () => {
    await expectFailure(call("readChunk", "hello.txt", 0, 65), "FS_TOO_LARGE");
  });

  it("refuses directories with more than maxListEntries entries", async () => {
    fns = await hostModule(fsRead, "fs-read", { baseDir: layout.base, maxListEntries: 3 });
    await expectFailure(call("listDir", "."), "FS_TOO_LARGE");
    expect(await call("listDir", "sub")).toEqual([{ name: "nested.txt", type: "file", size: 6 }]);
  });
});

describe("fs-read: escapes are refused without revealing host paths", () => {
  it("refuses '..' and absolute paths", async () => {
    await expectFailure(call("readFile", "../outside/secret.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("readFile", "sub/../../outside/secret.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("readFile", join(layout.outside, "secret.txt")), "FS_OUTSIDE_BASE");
    await expectFailure(call("readFile", "/etc/passwd"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("listDir", ".."), "FS_OUTSIDE_BASE", layout.hidden);
  });

  it("refuses a symlink pointing outside", async () => {
    for (const fn of ["readFile", "readBinary", "stat", "exists"]) {
      await expectFailure(call(fn, "link-outside"), "FS_OUTSIDE_BASE", layout.hidden);
    }
    await expectFailure(call("readChunk", "link-outside", 0, 4), "FS_OUTSIDE_BASE", layout.hidden);
  });

  it("refuses paths through a symlinked parent directory that leads outside", async () => {
    await expectFailure(call("readFile", "dirlink-outside/secret.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("listDir", "dirlink-outside"), "FS_OUTSIDE_BASE", layout.hidden);
    await expectFailure(call("exists", "dirlink-outside/secret.txt"), "FS_OUTSIDE_BASE", layout.hidden);
  });

  it("reports missing files and dangling links as FS_NOT_FOUND", async () => {
    await expectFailure(call("readFile", "nope.txt"), "FS_NOT_FOUND", layout.hidden);
    await expectFailure(call("readFile", "dangling"), "FS_NOT_FOUND", layout.hidden);
  });

  it("says which kind of entry was expected", async () => {
    await expectFailure(call("readFile", "sub"), "FS_NOT_FILE", layout.hidden);
    await expectFailure(call("listDir", "hello.txt"), "FS_NOT_DIRECTORY", layout.hidden);
  });

  it("refuses a FIFO without blocking on it", async () => {
    execFileSync("mkfifo", [join(layout.base, "pipe")]);
    await expectFailure(call("readFile", "pipe"), "FS_NOT_FILE", layout.hidden);
    expect(await call("listDir", ".")).toContainEqual({ name: "pipe", type: "other", size: 0 });
  });
});

describe("fs-read: arguments and configuration", () => {
  it("names the call's signature when arguments are wrong", async () => {
    const error = await expectFailure(call("readFile", 42), "FS_INVALID_ARGUMENT");
    expect(error.message).toContain("readFile(path, options?)");
    expect(error.message).toContain("path");
    await expectFailure(call("readFile", "hello.txt", { encodng: "utf8" }), "FS_INVALID_ARGUMENT");
    await expectFailure(call("readChunk", "hello.txt", -1, 4), "FS_INVALID_ARGUMENT");
    await expectFailure(call("readFile", ""), "FS_INVALID_PATH");
  });

  it("requires an absolute, existing baseDir", async () => {
    expect(fsRead.configSchema.safeParse({ baseDir: "relative/dir" }).success).toBe(false);
    expect(fsRead.configSchema.safeParse({}).success).toBe(false);
    await expectFailure(hostModule(fsRead, "fs-read", { baseDir: join(layout.root, "missing") }), "FS_BASE_DIR_INVALID");
    await expectFailure(hostModule(fsRead, "fs-read", { baseDir: join(layout.base, "hello.txt") }), "FS_BASE_DIR_INVALID");
  });

  it("fills in defaults for the caps", () => {
    expect(fsRead.configSchema.parse({ baseDir: "/srv" })).toEqual({ baseDir: "/srv", maxReadBytes: 10 * 1024 * 1024, maxListEntries: 10_000 });
  });
});
