import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { filesystemServer, makeHome, type E2eHome } from "./helpers.js";

/**
 * server-filesystem (npm) takes the roots its client offers as its allowed folders, in place of
 * the folder in its arguments. `mcpvm run` offers the folder it runs in, so a run started in /
 * let a server added for one data folder read /etc/passwd. A server's own `roots` (what
 * `mcp add filesystem --dir` writes) are what it is offered, whatever folder the run starts in.
 */
describe("a server's own roots: server-filesystem stays on its folder", () => {
  let home: E2eHome | undefined;
  afterEach(async () => {
    await home?.cleanup();
  });

  const readFrom = async (h: E2eHome, path: string) => {
    // Run from / : the roots a run offers by default are its working directory.
    const io = captureIo(h.env, "", "/");
    const code = await runCli(["--json", "run", "-e", `return require("host:mcp-files").read_text_file({ path: ${JSON.stringify(path)} })`], io);
    return { code, out: io.stdoutText() };
  };

  it("with roots [data], a run started in / reads data but not /etc/passwd", async () => {
    home = await makeHome({ servers: (dir) => ({ files: { ...filesystemServer(join(dir, "data")), roots: [join(dir, "data")] } }) });
    await mkdir(join(home.dir, "data"));
    await writeFile(join(home.dir, "data", "note.txt"), "inside the folder");
    const inside = await readFrom(home, join(home.dir, "data", "note.txt"));
    expect(inside.out).toContain("inside the folder");
    const outside = await readFrom(home, "/etc/passwd");
    expect(outside.out).not.toContain("root:");
    expect(outside.out).toMatch(/outside allowed directories|Access denied/i);
  }, 60_000);

  it("without them, the same run reads /etc/passwd: the folder in its arguments alone does not hold it", async () => {
    home = await makeHome({ servers: (dir) => ({ files: filesystemServer(join(dir, "data")) }) });
    await mkdir(join(home.dir, "data"));
    const outside = await readFrom(home, "/etc/passwd");
    expect(outside.out).toContain("root:");
  }, 60_000);
});
