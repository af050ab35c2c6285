import { describe, expect, it } from "vitest";
import { COMMAND_ENTRIES } from "../../src/cli/commands/index.js";

/**
 * The dispatcher lists commands by name and summary without loading them (src/cli/commands/index.ts);
 * each entry must load the command it names, so `mcpvm --help` never describes a different command
 * than the one that runs.
 */
describe("the lazy command table", () => {
  it("loads, for every entry, the command of that name with that summary", async () => {
    for (const entry of COMMAND_ENTRIES) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
      expect(command.usage.length).toBeGreaterThan(0);
    }
    expect(new Set(COMMAND_ENTRIES.map((entry) => entry.name)).size).toBe(COMMAND_ENTRIES.length);
  }, 60_000);
});
