import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withFileLock } from "../../src/util/file-lock.js";
import { tempFilesOf } from "../../src/util/stale-temp-files.js";

/** Temp files of writers that died between write and rename are cleared by the next writer (under the lock). */

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpvm-stale-temp-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has already ended. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", ""]).pid;
  if (pid === undefined) throw new Error("could not start a child process");
  return pid;
}

describe("temp files of dead writers", () => {
  it("recognises only the temp files of the given file, with their writer's pid", () => {
    const names = ["config.json", "config.json.123.a1b2c3d4e5f6.tmp", "config.json.lock", "config.jsonx.9.aa.tmp", "toolsets.json.77.ff.tmp", "config.json.12.notes.tmp"];
    expect(tempFilesOf(join(dir, "config.json"), names)).toEqual([{ name: "config.json.123.a1b2c3d4e5f6.tmp", pid: 123 }]);
  });

  it("the next writer of a file removes its dead writers' temp files and keeps everything else", async () => {
    const dead = deadPid();
    const file = join(dir, "config.json");
    const names = {
      deadTemp: `config.json.${dead}.0123456789ab.tmp`,
      liveTemp: `config.json.${process.pid}.0123456789ab.tmp`, // this process is alive: may be mid-write
      otherFile: `toolsets.json.${dead}.0123456789ab.tmp`, // another file's: its own writer clears it
    };
    await writeFile(file, "{}\n");
    for (const name of Object.values(names)) await writeFile(join(dir, name), "partial");

    await withFileLock(file, async () => undefined);

    expect((await readdir(dir)).sort()).toEqual(["config.json", names.liveTemp, names.otherFile].sort());
  });
});
