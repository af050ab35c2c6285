import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { everythingServer, makeHome, ROOT, type TestHome } from "./helpers.js";

const run = promisify(execFile);
// `npx @modelcontextprotocol/inspector --cli …` hands its arguments to this package's CLI.
const INSPECTOR = join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");

/** docs/GATEWAY.md "Setting it up": the MCP Inspector's CLI against a gateway guarded by the home's token, as written there. */
describe("the MCP Inspector's CLI through an HTTP gateway with its home token", () => {
  let home: TestHome;
  let running: RunningGateway;
  let token: string;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
    // Neither token nor noAuth: the gateway makes <home>/gateway-token, which the docs read with `cat`.
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, logLevel: "error", pretty: false });
    token = (await readFile(join(home.dir, "gateway-token"), "utf8")).trim();
  });

  afterAll(async () => {
    await running?.close();
    await home?.cleanup();
  });

  async function inspector(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    // It finds its own package.json relative to the working directory (build/../package.json).
    return run(process.execPath, [INSPECTOR, running.url as string, "--transport", "http", ...args], { timeout: 60_000, cwd: dirname(INSPECTOR) }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
    );
  }
  const bearer = (): string[] => ["--header", `Authorization: Bearer ${token}`];

  it("lists the gateway's tools with the token from the home", async () => {
    const listed = await inspector([...bearer(), "--method", "tools/list"]);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["run_mcp_script", "list_mcp_tools"]));
  }, 120_000);

  it("runs a script through run_mcp_script with a --tool-arg", async () => {
    const called = await inspector([...bearer(), "--method", "tools/call", "--tool-name", "run_mcp_script", "--tool-arg", "script=return 6 * 7"]);
    expect(called.code, called.stderr).toBe(0);
    const result = JSON.parse(called.stdout) as { isError?: boolean; content: Array<{ text?: string }> };
    expect(result.isError ?? false).toBe(false);
    expect(result.content.map((item) => item.text ?? "").join("\n")).toContain("42");
  }, 120_000);

  it("without the header it is refused, and the message names the header and the tokens to send", async () => {
    const refused = await inspector(["--method", "tools/list"]);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}\n${refused.stderr}`).toMatch(/no bearer token; send Authorization: Bearer <token> \(the gateway token, or a client token/);
  }, 120_000);
});
