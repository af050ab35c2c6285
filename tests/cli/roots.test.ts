import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { everythingServer, makeHome, type E2eHome } from "../e2e/helpers.js";
import { captureIo } from "../support/cli-io.js";

/**
 * The roots `mcpvm run` offers the servers it starts (docs/MCP.md): the working directory, or
 * config.json `roots`. server-everything asks for them and shows them with its get-roots-list tool
 * (registered only for a client that offers roots).
 */
const SCRIPT = 'const r = await require("host:mcp-everything").get_roots_list({}); return typeof r === "string" ? r : JSON.stringify(r);';

describe("roots offered by mcpvm run", () => {
  let home: E2eHome;
  let work: string;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: { ...everythingServer(), confirm: "never" } } });
    work = await mkdtemp(join(tmpdir(), "mcpvm-roots-"));
  }, 60_000);
  afterAll(async () => {
    await home?.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it("the working directory, by default", async () => {
    const io = captureIo(home.env, SCRIPT, work);
    expect(await runCli(["run", "-"], io)).toBe(0);
    expect(io.stdoutText()).toContain(pathToFileURL(work).href);
  }, 60_000);

  it("config.json roots instead (~/ is the home folder)", async () => {
    const file = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...config, roots: ["~/projects", "/srv/data"] }), { mode: 0o600 });
    const io = captureIo(home.env, SCRIPT, work);
    expect(await runCli(["run", "-"], io)).toBe(0);
    const out = io.stdoutText();
    expect(out).toContain(pathToFileURL(join(home.dir, "projects")).href);
    expect(out).toContain("file:///srv/data");
    expect(out).not.toContain(pathToFileURL(work).href);
  }, 60_000);
});
