import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");
const MEMORY = join(ROOT, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js");
// util-linux `script` gives the CLI a real pseudo-terminal, so stdin and stderr are TTYs.
const hasScript = spawnSync("script", ["--version"]).status === 0;

/**
 * Field report row 49: `--yes` answers confirmations, but it must not stop mcpvm from asking a
 * person at a terminal for a `${input:…}` value — it used to say "nothing can ask for it here".
 */
describe.skipIf(!hasScript)("--yes on a terminal still asks for ${input:…} values", () => {
  it("mcpvm --yes mcp approve asks for the input on the terminal and the server starts with the answer", async () => {
    const home = await mkdtemp(join(tmpdir(), "mcpvm-yes-input-"));
    try {
      const config = {
        plugins: { mcp: { enabled: true } },
        mcpServers: {
          mem: {
            command: process.execPath,
            args: [MEMORY],
            env: { MEMORY_FILE_PATH: join(home, "${input:memfile}") },
            inputs: [{ type: "promptString", id: "memfile", description: "Memory file name" }],
          },
        },
      };
      await writeFile(join(home, "config.json"), JSON.stringify(config), { mode: 0o600 });
      const env = { ...process.env, MCPVM_HOME: home, NO_COLOR: "1" };
      const cli = (args: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(VITE_NODE)} ${JSON.stringify(CLI_ENTRY)} -- ${args}`;
      await promisify(execFile)("bash", ["-c", cli("--yes plugin approve mcp")], { env, timeout: 60_000 });
      // Type the answer once the question is on the terminal (a generous wait: loading the sources is slow).
      const session = `(sleep 15; printf 'answered.json\\r'; sleep 20) | script -qec ${JSON.stringify(cli("--yes mcp approve mem"))} /dev/null`;
      const { stdout } = await promisify(execFile)("bash", ["-c", session], { env, timeout: 90_000, maxBuffer: 4 * 1024 * 1024 }).catch(
        (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }),
      );
      expect(stdout).toContain("Memory file name:");
      expect(stdout).not.toContain("nothing can ask for it here");
      expect(stdout).toMatch(/9 tools available as host:mcp-mem/);
      // The server really got the answer: server-memory was started with MEMORY_FILE_PATH=<home>/answered.json.
      expect(await readFile(join(home, "approved-mcp.json"), "utf8")).toContain('"mem"');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 150_000);
});
