import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCommand } from "../../../src/host/diagnose/path-lookup.js";
import { findExecutable } from "../../../src/mcp/approval/index.js";

/**
 * Doctor (findCommand) and the approval pin (findExecutable) must name the program a real spawn runs,
 * for every shape of the child's PATH: they disagreed on an empty element (doctor skipped it, the
 * spawn takes the child's cwd), a relative element (doctor read it from mcpvm's own cwd) and no PATH
 * at all (the pin searched the cwd, the spawn the system default /usr/bin:/bin).
 */
describe.skipIf(process.platform === "win32")("where the spawn, doctor and the pin look for a bare command name", () => {
  let root: string;
  let cwd: string;
  let elsewhere: string;
  const labels = new Map<string, string>();

  async function tool(dir: string, label: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, "path-probe-zz");
    await writeFile(file, `#!/bin/sh\necho ${label}\n`, { mode: 0o755 });
    labels.set(file, label);
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "mcpvm-spawn-path-"));
    cwd = join(root, "cwd");
    elsewhere = join(root, "elsewhere");
    await tool(cwd, "cwd");
    await tool(join(cwd, "rel"), "rel");
    await tool(elsewhere, "elsewhere");
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  const ran = (path: string | undefined): string => {
    const child = spawnSync("path-probe-zz", [], { cwd, env: path === undefined ? {} : { PATH: path }, encoding: "utf8" });
    return child.error === undefined ? child.stdout.trim() : "not found";
  };
  const named = (found: string | undefined): string => (found === undefined ? "not found" : (labels.get(found) ?? found));

  it.each([
    ["no PATH at all", undefined],
    ["an empty PATH", ""],
    ["a leading empty element", ":ELSEWHERE"],
    ["a trailing empty element", "ELSEWHERE:"],
    ["a relative element", "rel"],
    ["an absolute folder", "ELSEWHERE"],
    ["a folder without it", "/nonexistent-zz"],
  ])("%s", async (_shape, template) => {
    const path = template?.replaceAll("ELSEWHERE", elsewhere);
    const spawned = ran(path);
    expect(named(findExecutable("path-probe-zz", path, cwd)), "the pin").toBe(spawned);
    expect(named(await findCommand("path-probe-zz", path, cwd)), "doctor").toBe(spawned);
  });
});
