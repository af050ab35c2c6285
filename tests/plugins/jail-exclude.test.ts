import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Jail } from "../../src/plugins/jail.js";
import { parseGuestPath } from "../../src/plugins/jail-path.js";
import { makeDirectories, openForWrite } from "../../src/plugins/jail-write.js";

/** A base directory that contains mcpvm's config home (baseDir=$HOME) must not expose it. */
describe("the jail keeps the config home out of reach", () => {
  let base: string;
  let home: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "mcpvm-jail-home-"));
    home = join(base, ".mcpvm");
    await mkdir(home);
    await writeFile(join(home, "config.json"), '{"mcpServers":{}}');
    await writeFile(join(base, "notes.txt"), "hello");
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it("reads elsewhere in the base but refuses anything inside the config home", async () => {
    const jail = await Jail.open(base, { exclude: [home] });
    expect(await jail.resolveExisting(parseGuestPath("notes.txt"))).toBe(join(base, "notes.txt"));
    await expect(jail.resolveExisting(parseGuestPath(".mcpvm/config.json"))).rejects.toMatchObject({ code: "FS_OUTSIDE_BASE" });
    await expect(jail.resolveExisting(parseGuestPath(".mcpvm"))).rejects.toMatchObject({ code: "FS_OUTSIDE_BASE" });
  });

  it("refuses to write or create approvals there, and the files stay as they were", async () => {
    const jail = await Jail.open(base, { exclude: [home] });
    await expect(openForWrite(jail, parseGuestPath(".mcpvm/approved-mcp.json"))).rejects.toMatchObject({ code: "FS_OUTSIDE_BASE" });
    await expect(openForWrite(jail, parseGuestPath(".mcpvm/config.json"))).rejects.toMatchObject({ code: "FS_OUTSIDE_BASE" });
    await expect(makeDirectories(jail, parseGuestPath(".mcpvm/plugins/evil"))).rejects.toMatchObject({ code: "FS_OUTSIDE_BASE" });
    expect(await readFile(join(home, "config.json"), "utf8")).toBe('{"mcpServers":{}}');
  });

  it("refuses to create the config home itself when it does not exist yet", async () => {
    await rm(home, { recursive: true, force: true });
    const jail = await Jail.open(base, { exclude: [home] });
    await expect(makeDirectories(jail, parseGuestPath(".mcpvm"))).rejects.toMatchObject({ code: "FS_OUTSIDE_BASE" });
  });

  it("refuses a base directory inside the config home", async () => {
    await expect(Jail.open(home, { exclude: [home] })).rejects.toMatchObject({ code: "FS_BASE_DIR_INVALID" });
  });
});
