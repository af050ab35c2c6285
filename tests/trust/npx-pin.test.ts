import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { findPackageSpec, NPX_FLAGS, pinNpxSpec, UVX_FLAGS } from "../../src/mcp/approval/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";
import { FIXTURE, makeHome, type E2eHome } from "../e2e/helpers.js";
import { startLocalRegistry, type LocalRegistry } from "../fixtures/npm-registry.js";

/**
 * Issue 16, "approval that pins what actually runs": `npx -y pkg` asks the registry for the latest
 * release at every start and runs it. The pin read the version from npx's cache before the spawn,
 * where the approved release still sat, so the first start after a new release ran it unapproved.
 * Here a real npx talks to a registry on 127.0.0.1 that publishes 2.0.0 after 1.0.0 was approved.
 */

const PACKAGE = "mcpvm-npx-pin-probe";
let work: string;
let registry: LocalRegistry;
let home: E2eHome;
const ranLog = () => join(work, "ran.log");

/** The package's one file: notes its version, then serves the fixture's tools. */
function serverFile(version: string): string {
  return `#!/usr/bin/env node\nimport { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(ranLog())}, ${JSON.stringify(version)} + "\\n");\nif (process.env.PROBE_EXIT === "1") process.exit(0);\nawait import(${JSON.stringify(pathToFileURL(FIXTURE).href)});\n`;
}

async function publish(version: string): Promise<void> {
  await registry.publish(version, { "package.json": JSON.stringify({ type: "module", bin: { [PACKAGE]: "server.mjs" } }), "server.mjs": serverFile(version) });
}

async function cli(argv: readonly string[]) {
  const io = captureIo(home.env);
  const code = await runCli(argv, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

const versionsRan = async () => (await readFile(ranLog(), "utf8").catch(() => "")).split("\n").filter((line) => line !== "");

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "mcpvm-npx-pin-"));
  registry = await startLocalRegistry(PACKAGE, work);
  await publish("1.0.0");
  home = await makeHome({ servers: { probe: { command: "npx", args: ["-y", PACKAGE], connectTimeoutMs: 120_000 } } });
  // The child's HOME is the config home here: its .npmrc names the registry; npx's cache is its .npm.
  await writeFile(join(home.dir, ".npmrc"), `registry=${registry.url}\nupdate-notifier=false\naudit=false\nfund=false\n`);
}, 120_000);

afterAll(async () => {
  await home?.cleanup();
  await registry?.close();
  await rm(work, { recursive: true, force: true });
});

describe("an npx package the arguments leave open runs at the version approved", () => {
  it("keeps running the approved release after a newer one is published, and says the server is still approved", async () => {
    // Approved before any download: the first start fetches the latest (1.0.0), the next learns it.
    expect((await cli(["--yes", "mcp", "call", "probe", "echo", "text=first"])).stdout.trim()).toBe("first");
    expect((await cli(["--yes", "mcp", "call", "probe", "echo", "text=second"])).stdout.trim()).toBe("second");
    const approved = JSON.parse(await readFile(join(home.dir, "approved-mcp.json"), "utf8")) as { servers: Record<string, { runs?: { package?: { version?: string } } }> };
    expect(approved.servers.probe?.runs?.package?.version).toBe("1.0.0");

    await publish("2.0.0");
    const third = await cli(["--yes", "mcp", "call", "probe", "echo", "text=third"]);
    expect(third.code, third.stderr).toBe(ExitCode.Ok);
    expect(third.stdout.trim()).toBe("third");
    expect(await versionsRan()).toEqual(["1.0.0", "1.0.0", "1.0.0"]);

    // npx run by hand (another project) now caches 2.0.0: what mcpvm launches is unchanged, so its
    // approval is not "changed" and the server still starts at 1.0.0.
    // Not spawnSync: the registry answers from this process's event loop.
    await promisify(execFile)("npx", ["-y", PACKAGE], { cwd: home.dir, env: { PATH: process.env.PATH ?? "", HOME: home.dir, PROBE_EXIT: "1" }, timeout: 60_000 });
    expect((await versionsRan()).at(-1)).toBe("2.0.0");
    const list = JSON.parse((await cli(["--json", "mcp", "list"])).stdout) as { servers: { name: string; state: string }[] };
    expect(list.servers.find((server) => server.name === "probe")?.state).not.toBe("changed");
    expect((await cli(["--yes", "mcp", "call", "probe", "echo", "text=fourth"])).stdout.trim()).toBe("fourth");
    expect((await versionsRan()).at(-1)).toBe("1.0.0");
  }, 240_000);
});

describe("finding and pinning a runner's package spec", () => {
  it("finds npx's package positionally, after --, and as -p/--package; uvx's -p is the Python version", () => {
    expect(findPackageSpec(["-y", "@scope/pkg@^1"], NPX_FLAGS)).toEqual({ spec: "@scope/pkg@^1", index: 1, prefix: "" });
    expect(findPackageSpec(["--registry", "https://r", "-y", "--", "pkg"], NPX_FLAGS)).toEqual({ spec: "pkg", index: 4, prefix: "" });
    expect(findPackageSpec(["-p", "pkg@latest", "pkg-cli"], NPX_FLAGS)).toEqual({ spec: "pkg@latest", index: 1, prefix: "" });
    expect(findPackageSpec(["--package=pkg", "pkg-cli"], NPX_FLAGS)).toEqual({ spec: "pkg", index: 0, prefix: "--package=" });
    expect(findPackageSpec(["-p", "3.12", "mcp-server-fetch"], UVX_FLAGS)?.spec).toBe("mcp-server-fetch");
  });

  it("pins an open spec to the approved version and leaves exact, foreign and non-registry specs alone", () => {
    expect(pinNpxSpec(["-y", "@scope/pkg"], "@scope/pkg", "1.2.3")).toEqual(["-y", "@scope/pkg@1.2.3"]);
    expect(pinNpxSpec(["-y", "pkg@latest", "--flag"], "pkg", "1.2.3")).toEqual(["-y", "pkg@1.2.3", "--flag"]);
    expect(pinNpxSpec(["-y", "pkg@^1.0.0"], "pkg", "1.4.0")).toEqual(["-y", "pkg@1.4.0"]);
    expect(pinNpxSpec(["--package=pkg", "pkg-cli"], "pkg", "1.2.3")).toEqual(["--package=pkg@1.2.3", "pkg-cli"]);
    expect(pinNpxSpec(["-y", "pkg@1.0.0"], "pkg", "1.0.0")).toBeUndefined();
    expect(pinNpxSpec(["-y", "other"], "pkg", "1.2.3")).toBeUndefined();
    expect(pinNpxSpec(["-y", "github:me/server"], "github:me/server", "1.2.3")).toBeUndefined();
    expect(pinNpxSpec(["-y", "./local-server"], "./local-server", "1.2.3")).toBeUndefined();
    expect(pinNpxSpec(["-y", "pkg"], "pkg", "not-a-version")).toBeUndefined();
  });
});
