import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * `mcp login` of a stdio server is a usage error. It printed "Logging in to <name> …" first, as if a
 * login had begun, then refused.
 */

let home: E2eHome;
beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ local: fixtureServer(join(dir, "local.starts")) }) });
});
afterAll(async () => home.cleanup());

describe("mcpvm mcp login of a stdio server", () => {
  it("is refused (exit 2) saying why, without announcing a login", async () => {
    const result = await cli(home, ["mcp", "login", "local"]);
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain("server local is a stdio server; login applies to http and sse servers only.");
    expect(result.stdout + result.stderr).not.toContain("Logging in");
  });
});
