import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";

/** The README's main command runs this tour; the test runs it the same way, so the front door cannot rot. */
describe("examples/tour.js via `mcpvm demo`", () => {
  it("calls real MCP servers from npm and returns what the tour promises", async () => {
    const home = await mkdtemp(join(tmpdir(), "mcpvm-demo-test-"));
    try {
      const io = captureIo({ PATH: process.env.PATH, HOME: process.env.HOME });
      const code = await runCli(["demo", "--home", home, "--json"], io);
      expect(code, io.stderrText()).toBe(0);
      const { result } = JSON.parse(io.stdoutText());
      expect(result.sum).toBe("The sum of 19 and 23 is 42.");
      expect(result.chicago).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
      expect(result.batch[2]).toBe("McpInvalidArgumentsError");
      expect(result.batch[3]).toBe("The sum of 7 and 8 is 15.");
      expect(result.graph).toEqual({ entities: ["New York", "Chicago", "Los Angeles"], relations: 1 });
      expect(result.refused).toMatch(/^McpInvalidArgumentsError: invalid arguments for memory\.create_entities/);
      expect(result.image).toEqual([expect.stringMatching(/^image\/png, \d+ bytes$/)]);
      expect(result.serverSawEnv).not.toContain("MCPVM_HOME");
      expect(result.serverSawEnv).toContain("PATH");
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
