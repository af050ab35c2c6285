import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { bundleCli, type CliBundle } from "../support/cli-bundle.js";
import { captureIo } from "../support/cli-io.js";
import { isAlive } from "../support/processes.js";
import { FIXTURE, ROOT } from "./helpers.js";

/**
 * Nothing a person wrote is lost when several mcpvm processes change the config home at once, or
 * when one dies mid-write. Every writer here is a real `mcpvm` process (from the TypeScript
 * sources) on real files; the assertions read the files they leave behind.
 */

const VITE_NODE = join(ROOT, "node_modules/vite-node/vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests/trust/fixtures/cli-argv-entry.ts");
const WRITE_THEN_HANG = join(ROOT, "tests/trust/fixtures/write-then-hang.ts");

interface Outcome {
  readonly argv: readonly string[];
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let home: string;
let env: Record<string, string>;
/** Every child started, so none outlives its test (the hanging writer never ends by itself). */
const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

interface Started {
  /** Resolves once the child has loaded the CLI and waits for the go. */
  readonly ready: Promise<void>;
  readonly go: () => void;
  readonly done: Promise<Outcome>;
}

/** How a child runs the CLI: node's arguments before the script's own. */
const VIA_VITE_NODE: readonly string[] = [VITE_NODE, CLI_ENTRY];

/** `mcpvm <argv>` as its own process in the home (argv as JSON: vite-node drops "--"), held at the start line. */
function startMcpvm(argv: readonly string[], runner: readonly string[]): Started {
  const child = track(
    spawn(process.execPath, [...runner], {
      cwd: home,
      env: { ...env, MCPVM_TEST_ARGV: JSON.stringify(argv) },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    }),
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const done = new Promise<Outcome>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ argv, code: code ?? -1, stdout, stderr }));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    void done.then((outcome) => reject(new Error(`mcpvm ${argv.join(" ")} ended before it was ready (${outcome.code}):\n${outcome.stderr}`)));
  });
  return { ready, go: () => child.send("go"), done };
}

/**
 * Start every command as its own process, wait until all have loaded, release them at once, and
 * wait for all to end. `seconds` counts from the release.
 */
async function mcpvmTogether(commands: ReadonlyArray<readonly string[]>, runner = VIA_VITE_NODE): Promise<{ outcomes: Outcome[]; seconds: number }> {
  const started = commands.map((argv) => startMcpvm(argv, runner));
  await Promise.all(started.map((child) => child.ready));
  const released = performance.now();
  for (const child of started) child.go();
  const outcomes = await Promise.all(started.map((child) => child.done));
  return { outcomes, seconds: (performance.now() - released) / 1000 };
}

/** The same CLI in-process: quick, for set-up and for the command that follows a crash. */
async function mcpvmInProcess(argv: readonly string[]): Promise<Outcome> {
  const io = captureIo(env, "", home);
  const code = await runCli(argv, io);
  return { argv, code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

function expectOk(outcome: Outcome): void {
  expect(outcome.code, `mcpvm ${outcome.argv.join(" ")}\n${outcome.stderr}`).toBe(0);
}

function readJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(home, name), "utf8")) as Record<string, unknown>;
}

function serverNames(): string[] {
  return Object.keys((readJson("config.json").mcpServers ?? {}) as Record<string, unknown>).sort();
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-concurrent-"));
  env = { MCPVM_HOME: home, PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" };
  await writeFile(join(home, "server.js"), `import ${JSON.stringify(`file://${FIXTURE}`)};\n`);
  expectOk(await mcpvmInProcess(["plugin", "approve", "mcp", "--yes"]));
  expectOk(await mcpvmInProcess(["plugin", "enable", "mcp"]));
});

afterEach(async () => {
  for (const child of children) child.kill("SIGKILL");
  await rm(home, { recursive: true, force: true });
});

describe("concurrent writers keep every change", () => {
  // `mcp add` loads no plugin code, so its 20 processes run the bundled CLI (a quarter of the CPU).
  let bundle: CliBundle;
  beforeAll(async () => {
    bundle = await bundleCli();
  });
  afterAll(async () => {
    await bundle?.remove();
  });

  it("20 concurrent `mcpvm mcp add srvN` processes leave all 20 servers in config.json", async () => {
    const names = Array.from({ length: 20 }, (_, index) => `srv${index + 1}`);
    const started = performance.now();
    const { outcomes, seconds } = await mcpvmTogether(
      names.map((name) => ["mcp", "add", name, "--stdio", "--", "node", "server.js"]),
      [bundle.file],
    );
    const total = (performance.now() - started) / 1000;
    for (const outcome of outcomes) expectOk(outcome);
    expect(serverNames()).toEqual([...names].sort());
    const config = readJson("config.json") as { mcpServers: Record<string, { args: string[] }>; plugins: Record<string, unknown> };
    expect(config.mcpServers.srv7?.args).toEqual([join(home, "server.js")]);
    expect(config.plugins.mcp).toEqual({ enabled: true }); // the earlier settings survive too
    // Reported in the test output (the issue asks for the figure).
    console.log(`20 concurrent mcp add processes: all 20 kept; ${seconds.toFixed(1)} s from the common start to the last exit (${total.toFixed(1)} s with loading the sources)`);
  }, 300_000);

  it("concurrent approve, add, toolset build and plugin config processes each keep their change", async () => {
    expectOk(await mcpvmInProcess(["mcp", "add", "alpha", "--stdio", "--", "node", "server.js"]));
    expectOk(await mcpvmInProcess(["mcp", "add", "gamma", "--stdio", "--", "node", "server.js"]));
    const { outcomes } = await mcpvmTogether([
      ["--yes", "mcp", "approve", "alpha"],
      ["--yes", "mcp", "approve", "gamma"],
      ["mcp", "add", "beta", "--stdio", "--", "node", "server.js"],
      ["mcp", "add", "delta", "--stdio", "--", "node", "server.js"],
      ["toolset", "build", "alpha-tools", "alpha.echo", "alpha.pid"],
      ["toolset", "build", "gamma-tools", "gamma.echo"],
      ["plugin", "config", "fs-read", `baseDir=${home}`],
    ]);
    for (const outcome of outcomes) expectOk(outcome);

    expect(serverNames()).toEqual(["alpha", "beta", "delta", "gamma"]);
    const config = readJson("config.json") as { plugins: Record<string, { enabled?: boolean; config?: Record<string, unknown> }> };
    expect(config.plugins["fs-read"]?.config).toEqual({ baseDir: home });
    expect(config.plugins.mcp?.enabled).toBe(true);
    const approvals = readJson("approved-mcp.json") as { servers: Record<string, unknown> };
    expect(Object.keys(approvals.servers).sort()).toEqual(["alpha", "gamma"]);
    const pins = JSON.stringify(readJson("mcp-pins.json"));
    expect(pins).toContain("alpha");
    expect(pins).toContain("gamma");
    const toolsets = readJson("toolsets.json") as { toolsets: Record<string, { tools: string[] }> };
    expect(toolsets.toolsets).toMatchObject({ "alpha-tools": { tools: ["alpha.echo", "alpha.pid"] }, "gamma-tools": { tools: ["gamma.echo"] } });
    // The mcp plugin's approval (approved-plugins.json) was written before and is still there.
    expect(JSON.stringify(readJson("approved-plugins.json"))).toContain('"mcp"');
  }, 300_000);
});

describe("a writer killed between writing and renaming", () => {
  it("leaves the old config.json intact; its lock is taken over and the next mcp add succeeds; its temp file is cleared", async () => {
    expectOk(await mcpvmInProcess(["mcp", "add", "kept", "--stdio", "--", "node", "server.js"]));
    const file = join(home, "config.json");
    const before = await readFile(file, "utf8");

    const child = track(spawn(process.execPath, [VITE_NODE, WRITE_THEN_HANG, "--", file, "lost"], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] }));
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const temp = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout! }).on("line", (line) => {
        if (line.startsWith("TEMP_WRITTEN ")) done(line.slice("TEMP_WRITTEN ".length));
      });
      child.once("exit", (code) => fail(new Error(`the writer exited (${code}) before writing its temp file:\n${stderr}`)));
    });
    // The new content is on disk in the temp file and the lock is held: kill it right there.
    expect(readFileSync(temp, "utf8")).toContain('"lost"');
    expect(existsSync(`${file}.lock`)).toBe(true);
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGKILL");
    await exited;
    expect(isAlive(child.pid!)).toBe(false);

    expect(await readFile(file, "utf8")).toBe(before);
    expect(serverNames()).toEqual(["kept"]);

    // The dead writer's lock goes stale (no refresh for 5 s) and is taken over.
    const started = performance.now();
    const next = await mcpvmInProcess(["mcp", "add", "after", "--stdio", "--", "node", "server.js"]);
    const waited = (performance.now() - started) / 1000;
    expectOk(next);
    expect(next.stdout).toContain("added after");
    expect(serverNames()).toEqual(["after", "kept"]);
    expect(waited).toBeLessThan(15);
    console.log(`mcp add after a writer was killed holding the lock: took the stale lock over in ${waited.toFixed(1)} s`);

    // Temp files of dead writers do not pile up: the next writer of the file removes them.
    expect(existsSync(temp)).toBe(false);
    expect((await readdir(home)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  }, 180_000);
});
