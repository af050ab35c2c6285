import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

/**
 * A config.json kept by hand keeps its form when a command changes it: `mcp add` and `mcp remove` used to rewrite the
 * whole file with 2-space indentation and the schema's key order.
 */
let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-config-form-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function mcp(args: readonly string[]) {
  const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH }, "", home);
  const code = await runCli(["mcp", ...args], io);
  return { code, stderr: io.stderrText() };
}

describe("config.json keeps the form its person gave it", () => {
  it("mcp add and mcp remove edit only their entry in a 4-space, CRLF file with its own key order", async () => {
    const file = join(home, "config.json");
    const written = '{\r\n    "roots": ["."],\r\n    "mcpServers": {\r\n        "kept": {"command": "node", "args": ["kept.js"]}\r\n    },\r\n    "engine": "quickjs"\r\n}\r\n';
    await writeFile(file, written);
    expect(await mcp(["add", "added", "--", "node", "added.js"])).toMatchObject({ code: ExitCode.Ok });
    const afterAdd = await readFile(file, "utf8");
    expect(afterAdd.startsWith('{\r\n    "roots": ["."],\r\n    "mcpServers": {\r\n        "kept": {"command": "node", "args": ["kept.js"]},\r\n        "added": {\r\n')).toBe(true);
    expect(afterAdd).not.toMatch(/[^\r]\n/);
    expect(JSON.parse(afterAdd).mcpServers.added).toMatchObject({ command: "node", args: ["added.js"] });
    expect(await mcp(["remove", "added"])).toMatchObject({ code: ExitCode.Ok });
    expect(await readFile(file, "utf8")).toBe(written);
  });
});
