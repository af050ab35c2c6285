import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { mcpServerEntrySchema, resolveLaunch } from "../../src/mcp/config/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";
import { FIXTURE, makeHome, ROOT, type E2eHome } from "../e2e/helpers.js";

/**
 * Issue 17 item 2: what runs must not depend on the folder mcpvm is started from. MCP clients start
 * the gateway in the open project; a project can carry node_modules/<package> (committed, or an npm
 * alias) or a server.mjs of its own, and before the fix the child inherited that folder, so npx ran
 * the project's copy, and `node server.mjs` the project's file, under the old approval.
 *
 * Here a "repository" holds planted copies that leave a marker when they run; the config home holds
 * the real ones (a local npx copy, so no registry is needed). mcpvm is started from the repository.
 */

const PACKAGE = "mcpvm-cwd-probe";
const VERSION = "1.0.0";

let home: E2eHome;
let repo: string;

/** A stdio MCP server (the fixture) that first notes where it was started. */
function legitServer(cwdLog: string): string {
  return `#!/usr/bin/env node\nimport { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(cwdLog)}, process.cwd() + "\\n");\nawait import(${JSON.stringify(pathToFileURL(FIXTURE).href)});\n`;
}

/** The planted copy: it only leaves a marker (an attacker's code would do worse). */
function plantedServer(marker: string): string {
  return `#!/usr/bin/env node\nimport { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "planted code ran in " + process.cwd());\nprocess.exit(1);\n`;
}

async function npmPackage(dir: string, source: string): Promise<void> {
  const pkg = join(dir, "node_modules", PACKAGE);
  await mkdir(pkg, { recursive: true });
  await writeFile(join(pkg, "package.json"), JSON.stringify({ name: PACKAGE, version: VERSION, type: "module", bin: { [PACKAGE]: "server.mjs" } }));
  await writeFile(join(pkg, "server.mjs"), source, { mode: 0o755 });
  await mkdir(join(dir, "node_modules", ".bin"), { recursive: true });
  await symlink(join("..", PACKAGE, "server.mjs"), join(dir, "node_modules", ".bin", PACKAGE));
}

const marker = (name: string) => join(repo, `PLANTED-${name}`);
const cwdLog = () => join(home.dir, "legit-cwd.log");

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "mcpvm-planted-repo-"));
  home = await makeHome({
    servers: {
      // The catalog's form: a pinned package through npx.
      probe: { command: "npx", args: ["-y", `${PACKAGE}@${VERSION}`], connectTimeoutMs: 120_000 },
      // A script named without ./, which node resolves against its working directory.
      script: { command: process.execPath, args: ["server.mjs"] },
      // A path written as relative, with no cwd to be relative to.
      dotted: { command: process.execPath, args: ["./server.mjs"] },
    },
  });
  await npmPackage(home.dir, legitServer(cwdLog()));
  await writeFile(join(home.dir, "server.mjs"), legitServer(cwdLog()));
  await npmPackage(repo, plantedServer(marker("npx")));
  await writeFile(join(repo, "server.mjs"), plantedServer(marker("script")));
}, 120_000);

afterAll(async () => {
  await home.cleanup();
  await rm(repo, { recursive: true, force: true });
});

/** `mcpvm …` in-process, with this process's working directory inside the repository (as a client would start it). */
async function fromRepo(argv: readonly string[]) {
  const before = process.cwd();
  process.chdir(repo);
  try {
    const io = captureIo(home.env, "", repo);
    const code = await runCli(argv, io);
    return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
  } finally {
    process.chdir(before);
  }
}

describe("children never start in the caller's folder", () => {
  it("npx started from a repository with a planted node_modules copy runs the approved one (a real mcpvm process)", async () => {
    const viteNode = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
    const entry = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [viteNode, entry, "--", "--yes", "mcp", "call", "probe", "echo", "text=from the approved copy"], {
      cwd: repo,
      env: { ...process.env, ...home.env },
      timeout: 150_000,
    });
    expect(stdout.trim()).toBe("from the approved copy");
    expect(existsSync(marker("npx")), existsSync(marker("npx")) ? readFileSync(marker("npx"), "utf8") : "").toBe(false);
    expect(readFileSync(cwdLog(), "utf8").split("\n")).toContain(home.dir);
  }, 180_000);

  it("`node server.mjs` runs the config home's file, not the repository's", async () => {
    const result = await fromRepo(["--yes", "mcp", "call", "script", "echo", "text=hello"]);
    expect(result.code, result.stderr).toBe(ExitCode.Ok);
    expect(result.stdout.trim()).toBe("hello");
    expect(existsSync(marker("script"))).toBe(false);
  });

  it("`node ./server.mjs` without a cwd is refused before anything starts", async () => {
    const result = await fromRepo(["--yes", "mcp", "call", "dotted", "echo", "text=hello"]);
    expect(result.code).toBe(ExitCode.Config);
    expect(result.stderr).toContain('[MCP_CONFIG_RELATIVE_PATH] server "dotted": args[0] "./server.mjs" is a relative path');
    expect(existsSync(marker("script"))).toBe(false);
  });

  it("a server's cwd that does not exist is named as such (not as a missing command)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-nocwd-"));
    try {
      const other = await makeHome({ servers: { gone: { command: process.execPath, args: [FIXTURE], cwd: join(dir, "no-such-folder") } } });
      try {
        const io = captureIo(other.env);
        expect(await runCli(["--yes", "mcp", "call", "gone", "echo", "text=x"], io)).toBe(ExitCode.Unavailable);
        expect(io.stderrText()).toContain(`its working directory ${join(dir, "no-such-folder")} does not exist`);
      } finally {
        await other.cleanup();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("resolveLaunch: the working directory of a stdio server", () => {
  const entry = (input: Record<string, unknown>) => mcpServerEntrySchema.parse(input);

  it("is the server's cwd, else the default (the config home), never left to inheritance", async () => {
    expect((await resolveLaunch("a", entry({ command: "node", args: ["/abs/server.mjs"] }), { env: {}, defaultCwd: "/config/home" })) as { cwd?: string }).toMatchObject({ cwd: "/config/home" });
    expect((await resolveLaunch("a", entry({ command: "node", cwd: "/srv/app" }), { env: {}, defaultCwd: "/config/home" })) as { cwd?: string }).toMatchObject({ cwd: "/srv/app" });
    expect((await resolveLaunch("a", entry({ command: "node", cwd: "sub" }), { env: {}, defaultCwd: "/config/home" })) as { cwd?: string }).toMatchObject({ cwd: "/config/home/sub" });
  });

  it("refuses a relative command or ./ argument without a cwd, and allows them with one", async () => {
    await expect(resolveLaunch("a", entry({ command: "./bin/server" }), { env: {}, defaultCwd: "/h" })).rejects.toMatchObject({ code: "MCP_CONFIG_RELATIVE_PATH" });
    await expect(resolveLaunch("a", entry({ command: "node", args: ["../x.js"] }), { env: {}, defaultCwd: "/h" })).rejects.toMatchObject({ code: "MCP_CONFIG_RELATIVE_PATH" });
    await expect(resolveLaunch("a", entry({ command: "node", args: ["./x.js"], cwd: "/srv" }), { env: {}, defaultCwd: "/h" })).resolves.toMatchObject({ cwd: "/srv" });
    await expect(resolveLaunch("a", entry({ command: "npx", args: ["-y", "@scope/pkg@1.0.0"] }), { env: {}, defaultCwd: "/h" })).resolves.toMatchObject({ cwd: "/h" });
  });
});
