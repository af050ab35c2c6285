import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { checkAssets } from "../../src/ui/static-assets.js";
import { captureIo } from "../support/cli-io.js";

describe("mcpvm ui (the command)", () => {
  it("refuses a port that is not a number, as a usage error (exit 2)", async () => {
    const home = await mkdtemp(join(tmpdir(), "mcpvm-ui-cmd-"));
    try {
      const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH ?? "", NO_COLOR: "1" }, "", home);
      expect(await runCli(["ui", "--port", "eighty", "--no-open"], io)).toBe(2);
      expect(io.stderrText()).toContain("--port takes a port number 0-65535");
      const help = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH ?? "" }, "", home);
      expect(await runCli(["ui", "--help"], help)).toBe(0);
      expect(help.stdoutText()).toContain("listen on 127.0.0.1:N");
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("says what to run when the dashboard's files were not built, instead of serving a blank page", async () => {
    const empty = await mkdtemp(join(tmpdir(), "mcpvm-ui-noassets-"));
    try {
      expect(() => checkAssets(empty)).toThrow(expect.objectContaining({ code: "UI_ASSETS_MISSING", message: expect.stringContaining("npm run build") }));
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
