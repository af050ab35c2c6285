import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable } from "../../src/mcp/approval/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, makeHome, type E2eHome } from "../e2e/helpers.js";
import { SCRIPTED } from "./helpers.js";

/**
 * An empty PATH element (`:/usr/bin`, `/usr/bin:`, `a::b`, what `PATH=$EXTRA:$PATH` gives with EXTRA
 * unset) is the current directory to the spawn, as to execvp: the child's cwd. The pin must find what
 * the spawn finds, or a `node` planted in a server's cwd runs under an approval of /usr/bin/node.
 */
describe("an empty PATH element is the server's cwd, for the pin as for the spawn", () => {
  let home: E2eHome;
  let project: string;
  const marker = () => join(home.dir, "planted-node-ran");

  beforeAll(async () => {
    home = await makeHome({
      servers: (dir) => ({ notes: { command: "node", args: [SCRIPTED, join(dir, "notes.spec.json")], cwd: join(dir, "project"), confirm: "never" } }),
    });
    project = join(home.dir, "project");
    await mkdir(project, { recursive: true });
    await writeFile(join(home.dir, "notes.spec.json"), JSON.stringify({ tools: [{ name: "note", annotations: { readOnlyHint: true } }] }));
  }, 60_000);
  afterAll(async () => home.cleanup());

  it("a node planted in the server's cwd after approval does not run under an empty PATH element: refused as a changed executable", async () => {
    const planted = join(project, "node");
    await writeFile(planted, `#!/bin/sh\necho ran >> ${JSON.stringify(marker())}\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    await chmod(planted, 0o755);
    for (const path of [`:${home.env.PATH}`, `${home.env.PATH}:`, `/nonexistent::${home.env.PATH}`]) {
      expect(findExecutable("node", path, project), path).toBe(path.endsWith(":") ? findExecutable("node", home.env.PATH ?? "", project) : planted);
    }
    const leading = { ...home, env: { ...home.env, PATH: `:${home.env.PATH}` } };
    const result = await cli(leading, ["run", "-e", `return require("host:mcp-notes").note({})`]);
    expect(existsSync(marker()), "the planted node ran").toBe(false);
    expect(result.code, result.stderr).toBe(ExitCode.ApprovalRequired);
    expect(result.stderr).toContain("MCP_EXECUTABLE_CHANGED");
  }, 60_000);
});
