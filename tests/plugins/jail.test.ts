import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Jail } from "../../src/plugins/index.js";
import { createFsLayout, type FsLayout } from "./fs-layout.js";
import { expectFailure } from "./helpers.js";

let layout: FsLayout;
beforeEach(async () => {
  layout = await createFsLayout();
});
afterEach(async () => layout.cleanup());

describe("Jail.verifyOpened (the check after open that defeats swap races)", () => {
  it("accepts a descriptor of a regular file inside the base", async () => {
    const jail = await Jail.open(layout.base);
    const handle = await open(join(layout.base, "hello.txt"), "r");
    const opened = await jail.verifyOpened(handle, join(layout.base, "hello.txt"), "hello.txt");
    expect(opened.stats.size).toBe(12);
    await handle.close();
  });

  it("refuses and closes a descriptor that ended up outside, whatever path was checked", async () => {
    const jail = await Jail.open(layout.base);
    // As if `hello.txt`'s parent had been swapped for a link to `outside` between check and open.
    const handle = await open(join(layout.outside, "secret.txt"), "r");
    await expectFailure(jail.verifyOpened(handle, join(layout.base, "hello.txt"), "hello.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    expect(handle.fd).toBe(-1);
  });

  it("refuses and closes a descriptor of a directory", async () => {
    const jail = await Jail.open(layout.base);
    const handle = await open(join(layout.base, "sub"), "r");
    await expectFailure(jail.verifyOpened(handle, join(layout.base, "sub"), "sub"), "FS_NOT_FILE", layout.hidden);
    expect(handle.fd).toBe(-1);
  });
});
