import { existsSync } from "node:fs";
import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Jail } from "../../src/plugins/index.js";
import { parseGuestPath } from "../../src/plugins/jail-path.js";
import { createIn, mkdirIn, removeIn } from "../../src/plugins/jail-write.js";
import { listDirectory } from "../../plugins/fs-read/dir-ops.js";
import { createFsLayout, type FsLayout } from "./fs-layout.js";
import { expectFailure } from "./helpers.js";

/**
 * A parent directory swapped for a symlink to outside the base after it was checked, and before
 * the create, mkdir, remove or listing that uses it (a TOCTOU race). The races are made
 * deterministic: the check runs (resolveParent / resolveExisting), the swap is done, and then the
 * step that used to act on the checked path runs. Everything must stay inside, or fail.
 */
let layout: FsLayout;
let jail: Jail;
beforeEach(async () => {
  layout = await createFsLayout();
  jail = await Jail.open(layout.base);
  await mkdir(join(layout.base, "work"));
  await writeFile(join(layout.outside, "victim.txt"), "keep me");
  await mkdir(join(layout.outside, "tree"));
  await writeFile(join(layout.outside, "tree", "inner.txt"), "keep me too");
});
afterEach(async () => layout.cleanup());

/** Check `work/<name>`, then replace `work` by a symlink to `outside`, as a racing process would. */
async function checkThenSwap(name: string): Promise<{ parent: string; name: string }> {
  const checked = await jail.resolveParent(parseGuestPath(`work/${name}`));
  await rename(join(layout.base, "work"), join(layout.base, "work-moved"));
  await symlink(layout.outside, join(layout.base, "work"));
  return checked;
}

describe("a parent swapped for a symlink between the check and the operation", () => {
  it("creating a file does not create it outside", async () => {
    const { parent, name } = await checkThenSwap("new.txt");
    await expectFailure(createIn(jail, parent, name, "work/new.txt"), "FS_OUTSIDE_BASE", layout.hidden);
    expect(existsSync(join(layout.outside, "new.txt"))).toBe(false);
  });

  it("mkdir does not create a directory outside", async () => {
    const { parent, name } = await checkThenSwap("newdir");
    await expectFailure(mkdirIn(jail, parent, name, "work/newdir"), "FS_OUTSIDE_BASE", layout.hidden);
    expect(existsSync(join(layout.outside, "newdir"))).toBe(false);
  });

  it("remove does not delete a file outside", async () => {
    const { parent, name } = await checkThenSwap("victim.txt");
    await expectFailure(removeIn(jail, parent, name, "work/victim.txt", false), "FS_OUTSIDE_BASE", layout.hidden);
    expect(existsSync(join(layout.outside, "victim.txt"))).toBe(true);
  });

  it("a recursive remove does not delete a tree outside", async () => {
    const { parent, name } = await checkThenSwap("tree");
    await expectFailure(removeIn(jail, parent, name, "work/tree", true), "FS_OUTSIDE_BASE", layout.hidden);
    expect(existsSync(join(layout.outside, "tree", "inner.txt"))).toBe(true);
  });

  it("listing does not show an outside directory's entries", async () => {
    await writeFile(join(layout.base, "work", "mine.txt"), "x");
    const real = await jail.resolveExisting(parseGuestPath("work"));
    await rename(join(layout.base, "work"), join(layout.base, "work-moved"));
    await symlink(layout.outside, join(layout.base, "work"));
    await expectFailure(listDirectory(jail, real, "work", 100), "FS_OUTSIDE_BASE", layout.hidden);
  });
});
