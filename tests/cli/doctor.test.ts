import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { probeHyperlight } from "../../src/sandbox/engines/hyperlight/index.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * `mcpvm doctor` finds what is broken and says what to run, exiting 3 (config), 5 (approval) or 6
 * (unavailable); `--json` lists the problems; `--connect` starts each server once. Real homes, real
 * files, real fixture servers.
 */

interface Problem {
  severity: string;
  kind: string;
  subject: string;
  message: string;
  next?: string;
}
interface Report {
  ok: boolean;
  exitCode: number;
  problems: Problem[];
  servers: { name: string; connect?: { ok: boolean; toolCount?: number; error?: { code: string; message: string } } }[];
}

const homes: E2eHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

async function home(servers: Parameters<typeof makeHome>[0]["servers"], approve?: readonly string[]): Promise<E2eHome> {
  const made = await makeHome({ servers, ...(approve === undefined ? {} : { approve }) });
  homes.push(made);
  return made;
}

async function report(h: E2eHome, ...args: string[]): Promise<{ code: number; report: Report }> {
  const out = await cli(h, ["--json", "doctor", ...args]);
  return { code: out.code, report: JSON.parse(out.stdout) as Report };
}

describe("mcpvm doctor", () => {
  it("a healthy home: exit 0, 'No problems found', and the Hyperlight reason said once", async () => {
    const h = await home((dir) => ({ echo: fixtureServer(join(dir, "echo.starts")) }));
    const out = await cli(h, ["doctor"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("No problems found.");
    expect(out.stdout).toMatch(/mcp {9}on; 1 server configured, 1 enabled/);
    const probe = await probeHyperlight();
    if (!probe.ok) expect(out.stdout.split(probe.reason).length - 1).toBe(1);
  });

  it("a typo in mcpServers: exit 3, naming the key with a did-you-mean (today's 'mcp enabled; 1 server(s)' is gone)", async () => {
    const h = await home({ ok: fixtureServer("/dev/null") });
    const config = JSON.parse(await readFile(join(h.dir, "config.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    config.mcpServers.typo = { comand: "node" };
    writeFileSync(join(h.dir, "config.json"), JSON.stringify(config));
    const out = await cli(h, ["doctor"]);
    expect(out.code).toBe(3);
    expect(out.stdout).toContain('mcpServers.typo: Unrecognized key: "comand"; did you mean "command"?');
    expect(out.stdout).toContain("broken: mcpServers in config.json is not valid; 2 servers configured, 1 valid");
    const { report: json } = await report(h);
    expect(json).toMatchObject({ ok: false, exitCode: 3 });
    expect(json.problems[0]).toMatchObject({ severity: "error", kind: "config", subject: "config.json" });
    expect(json.problems[0]?.next).toContain(join(h.dir, "config.json"));
    expect(json.problems[0]?.next).toContain("or drop the entry: mcpvm mcp remove typo");
  });

  it("an LLM setting that cannot work is a config problem (exit 3): an unknown provider in MCPVM_MODEL, an invalid model section; none set is not one", async () => {
    const h = await home({ ok: fixtureServer("/dev/null") }, ["ok"]);
    const typo = await report({ ...h, env: { ...h.env, MCPVM_MODEL: "opnai:gpt-4o-mini" } });
    expect(typo.code).toBe(3);
    expect(typo.report.problems).toEqual([expect.objectContaining({ severity: "error", kind: "config", subject: "MCPVM_MODEL", message: expect.stringContaining('unknown provider "opnai"; did you mean "openai"? Providers:') })]);
    const config = JSON.parse(await readFile(join(h.dir, "config.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(h.dir, "config.json"), JSON.stringify({ ...config, model: { provider: "openai-compatible", model: "m", maxSteps: 0 } }));
    const section = await report(h);
    expect(section.code).toBe(3);
    expect(section.report.problems).toEqual([expect.objectContaining({ kind: "config", subject: "config.json", message: expect.stringContaining("model.maxSteps") })]);
    writeFileSync(join(h.dir, "config.json"), JSON.stringify(config));
    expect((await report(h)).code).toBe(0);
  });

  it("a corrupt approvals file: reported with what breaks and how to fix it, exit 3", async () => {
    const h = await home((dir) => ({ echo: fixtureServer(join(dir, "echo.starts")) }));
    writeFileSync(join(h.dir, "approved-mcp.json"), "{ this is not json", { mode: 0o600 });
    const { code, report: json } = await report(h);
    expect(code).toBe(3);
    const problem = json.problems.find((p) => p.subject === "approved-mcp.json");
    expect(problem).toMatchObject({ severity: "error", kind: "config" });
    expect(problem?.message).toContain("no server starts");
    expect(problem?.next).toContain(`mv ${join(h.dir, "approved-mcp.json")}`);
  });

  it("a server that is not approved: exit 5 with the command that approves it", async () => {
    const h = await home((dir) => ({ echo: fixtureServer(join(dir, "echo.starts")) }), []);
    const out = await cli(h, ["doctor"]);
    expect(out.code).toBe(5);
    expect(out.stdout).toContain("server echo: echo is not approved, so it never starts");
    expect(out.stdout).toContain("→ mcpvm mcp approve echo");
  });

  it("npx missing from PATH: exit 6, saying what to install", async () => {
    const h = await home({ memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } });
    // A PATH with node on it but no npx, as on a machine with a bare Node binary.
    const bin = join(h.dir, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node"));
    const out = await cli({ ...h, env: { ...h.env, PATH: bin } }, ["doctor"]);
    expect(out.code).toBe(6);
    expect(out.stdout).toContain('server memory: command "npx" is not found on PATH; memory is started through npx');
    expect(out.stdout).toContain("npx comes with npm: install Node.js");
  });

  it("an unset ${VAR} and a missing script: both named, config (3) wins over unavailable (6)", async () => {
    const h = await home({ gh: { command: process.execPath, args: ["./not-there.js"], env: { GITHUB_TOKEN: "${DOCTOR_TEST_UNSET_TOKEN}" } } });
    const { code, report: json } = await report(h);
    expect(code).toBe(3);
    const messages = json.problems.map((p) => p.message);
    expect(messages).toContain("environment variable DOCTOR_TEST_UNSET_TOKEN is not set (or empty); gh uses it");
    expect(messages.some((m) => m.startsWith(`the script ./not-there.js does not exist (relative paths are resolved from ${h.dir})`))).toBe(true);
  });

  it("--connect starts each server: ✓ with its tools, ✗ with the error; exit 6 when one fails", async () => {
    const h = await home((dir) => ({
      good: fixtureServer(join(dir, "good.starts")),
      quitter: fixtureServer(join(dir, "quitter.starts"), "--mode exit-at-start --exit-code 7"),
    }));
    const out = await cli(h, ["doctor", "--connect"]);
    expect(out.code).toBe(6);
    expect(out.stdout).toMatch(/good +stdio +approved +✓ connected, \d+ tools/);
    expect(out.stdout).toMatch(/quitter +stdio +approved +✗ failed/);
    expect(out.stdout).toContain("server quitter: MCP server quitter exited during start-up (exit code 7)");
    const { report: json } = await report(h, "--connect");
    expect(json.servers.find((s) => s.name === "good")?.connect).toMatchObject({ ok: true, toolCount: expect.any(Number) });
    expect(json.servers.find((s) => s.name === "quitter")?.connect).toMatchObject({ ok: false, error: { code: "MCP_CONNECT_FAILED" } });
    // Without --connect, the recorded failure is still said (as a warning).
    const plain = await cli(h, ["doctor"]);
    expect(plain.stdout).toContain("! server quitter: the last start failed");
  });
});
