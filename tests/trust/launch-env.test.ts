import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolSet } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { buildAgentTools } from "../../src/agent/tools/index.js";
import type { McpvmHost } from "../../src/host/index.js";
import { cli, FIXTURE, makeHome, openHost, startCount, type TrustHome } from "./helpers.js";
import { approveAtTerminal } from "./interactive.js";

/**
 * Issue 17 item 4: the approval prompt showed `NODE_OPTIONS=****`, so a well-known, pinned command
 * line carried arbitrary code (`--require` a file). Code-loading variables are now shown in full,
 * flagged by the launch audit, and never approved by a plain yes. Field report row 51: a pure
 * `${VAR}` reference is shown as written, not as `****`.
 */
const homes: TrustHome[] = [];
const hosts: McpvmHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  for (const home of homes.splice(0)) await home.cleanup();
});

async function loaderHome(): Promise<{ home: TrustHome; marker: string }> {
  const home = await makeHome({
    env: { GITHUB_TOKEN: "ghp_host_token_value_1234567890" },
    servers: (starts, dir) => ({
      fx: {
        command: process.execPath,
        args: [FIXTURE],
        env: {
          MCPVM_FIXTURE_STARTS: starts,
          NODE_OPTIONS: `--require ${join(dir, "loader.cjs")}`,
          GITHUB_TOKEN: "${GITHUB_TOKEN}",
          API_KEY: "literal-secret-value",
        },
      },
    }),
  });
  homes.push(home);
  const marker = join(home.dir, "loaded.txt");
  // What an attacker's NODE_OPTIONS would run inside the server process.
  await writeFile(join(home.dir, "loader.cjs"), `require("node:fs").appendFileSync(${JSON.stringify(marker)}, "loaded\\n");`);
  return { home, marker };
}

describe("code-loading env in a launch definition", () => {
  it("the prompt shows NODE_OPTIONS in full with a warning, the reference as written, the literal masked", async () => {
    const { home } = await loaderHome();
    const info = await cli(home, ["mcp", "info", "fx"]);
    expect(info.code).toBe(0);
    expect(info.stdout).toContain(`NODE_OPTIONS="--require ${join(home.dir, "loader.cjs")}"`);
    expect(info.stdout).toContain("GITHUB_TOKEN=${GITHUB_TOKEN}");
    expect(info.stdout).toContain("API_KEY=****");
    expect(info.stdout).not.toContain("literal-secret-value");
    expect(info.stdout).toContain("WARNING: NODE_OPTIONS changes which code the server runs");
    const json = await cli(home, ["--json", "mcp", "info", "fx"]);
    const record = JSON.parse(json.stdout) as { launchFindings: unknown; definition: { env: Record<string, string> } };
    expect(record.launchFindings).toEqual([{ rule: "code-loading-env", severity: "block", name: "NODE_OPTIONS", message: "NODE_OPTIONS changes which code the server process runs" }]);
    expect(record.definition.env).toMatchObject({ GITHUB_TOKEN: "${GITHUB_TOKEN}", API_KEY: "****", NODE_OPTIONS: `--require ${join(home.dir, "loader.cjs")}` });
  });

  it("plain --yes does not approve it and nothing starts; --accept-launch-env does (and the loader really runs)", async () => {
    const { home, marker } = await loaderHome();
    const refused = await cli(home, ["--yes", "mcp", "approve", "fx"]);
    expect(refused.code).toBe(5);
    expect(refused.stdout).not.toContain("approved");
    expect(refused.stderr).toContain("Not approved: it sets NODE_OPTIONS, which changes which code runs, so --yes alone does not approve it");
    expect(refused.stderr).toContain("mcpvm mcp approve fx --accept-launch-env");
    expect(startCount(home.starts)).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const status = await cli(home, ["--json", "mcp", "info", "fx"]);
    expect((JSON.parse(status.stdout) as { approval: string }).approval).toBe("unapproved");

    const json = await cli(home, ["--yes", "--json", "mcp", "approve", "fx"]);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({ server: "fx", launch: { state: "not-approved", findings: [{ name: "NODE_OPTIONS" }] }, ok: false });

    const accepted = await cli(home, ["--yes", "mcp", "approve", "fx", "--accept-launch-env"]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain("approved fx");
    expect(existsSync(marker)).toBe(true);
  });

  it("on a terminal, the server name must be typed; a y is not enough", async () => {
    const { home } = await loaderHome();
    const host = await openHost(home);
    hosts.push(host);
    const declined = await approveAtTerminal(home, host, "fx", {}, ["y"]);
    expect(declined.questions[0]).toContain("It sets NODE_OPTIONS. Type the server name (fx) to approve it");
    expect(declined.code).toBe(5);
    expect((await (await host.requireMcp()).approvalStatus("fx")).state).toBe("unapproved");
    const typed = await approveAtTerminal(home, host, "fx", {}, ["fx"]);
    expect(typed.code).toBe(0);
    expect(typed.stdout).toContain("approved fx");
  });

  it("the model's manage enable cannot get it approved by a y/N, and shows nothing it could misread", async () => {
    const { home } = await loaderHome();
    const host = await openHost(home);
    hosts.push(host);
    let asked = 0;
    const tools: ToolSet = buildAgentTools({ host, person: { canAsk: true, confirm: async () => (asked++, true) }, runLimits: () => ({}) }).tools;
    const result = (await tools.manage?.execute?.({ action: "enable", server: "fx" }, { toolCallId: "t1", messages: [] })) as { error?: { code: string; message: string } };
    expect(result.error?.code).toBe("MCP_LAUNCH_ENV_UNCONFIRMED");
    expect(result.error?.message).toContain("mcpvm mcp approve fx --accept-launch-env");
    expect(asked).toBe(0);
    expect((await (await host.requireMcp()).approvalStatus("fx")).state).toBe("unapproved");
  });

  it("harmless PYTHON* settings and plain values are not flagged", async () => {
    const home = await makeHome({ servers: () => ({ py: { command: "uvx", args: ["mcp-server-time"], env: { PYTHONUNBUFFERED: "1", LOG_LEVEL: "debug" } } }) });
    homes.push(home);
    const json = await cli(home, ["--json", "mcp", "info", "py"]);
    expect((JSON.parse(json.stdout) as { launchFindings: unknown[] }).launchFindings).toEqual([]);
  });
});
