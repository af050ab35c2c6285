import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A corrupt approved-plugins.json refuses every enabled plugin. As with other state files, what does
 * not need it goes on: a script that uses no plugin runs (exit 0; it loads no plugin, src/host/deferred-plugins.ts)
 * and one that requires a plugin's module fails with the file's error (exit 3). The warning names the file, what is wrong, what stops
 * working and what to do, once: not once per enabled plugin, and not again on every REPL run.
 */
let home: E2eHome;
let file: string;

beforeAll(async () => {
  home = await makeHome({ servers: {} });
  file = join(home.dir, "approved-plugins.json");
  const config = JSON.parse(readFileSync(join(home.dir, "config.json"), "utf8")) as { plugins: Record<string, unknown> };
  config.plugins["fs-read"] = { enabled: true };
  writeFileSync(join(home.dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  writeFileSync(file, "garbage\n", { mode: 0o600 });
});
afterAll(async () => home?.cleanup());

const count = (text: string, part: string) => text.split(part).length - 1;

describe("a corrupt approved-plugins.json", () => {
  it("run -e 'return 1' runs (exit 0): a script that uses no plugin loads none, so nothing reads the file", async () => {
    const out = await cli(home, ["run", "-e", "return 1"]);
    expect(out.stdout.trim()).toBe("1");
    expect(out.code).toBe(0);
    expect(out.stderr).toBe("");
  });

  it("a script that requires a plugin's module fails with it, exit 3, with one warning: the file, what is wrong, what stops, what to do", async () => {
    const out = await cli(home, ["run", "-e", 'return require("host:fs-read")']);
    expect(out.stderr).toContain("[PLUGIN_APPROVALS_CORRUPT]");
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`mcpvm: warning: ${file} is not valid JSON (line 1, column 1: unexpected character); fix or delete it, then approve the plugins again.`);
    expect(out.stderr).toContain("Not loaded meanwhile: plugins fs-read, mcp (a script that requires their modules fails with this error; one that uses none runs).");
    expect(count(out.stderr, "mcpvm: warning:")).toBe(1);
  });

  it("the REPL says it in its banner, and not again as a warning at each run", async () => {
    const out = await cli(home, ["repl"], "/run return 1\n/run return 2\n/run return 3\n");
    expect(out.stdout).toContain("3");
    expect(out.stderr).toContain(`✗ ${file} is not valid JSON`);
    expect(count(out.stderr, `mcpvm: warning: ${file}`)).toBe(0);
  });
});
